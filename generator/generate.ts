// Schemas → validated SchemaSet → every emitter's files. No I/O beyond reading schemas/.
import type { GeneratedFile } from "./emit/emitter.js";
import { emitters } from "./emitters.js";
import { loadSchemaSet, type SchemaSet } from "./schema/schema-set.js";
import { validateSchemaSet } from "./validate/validate-schemas.js";

export interface GenerateResult {
  files: GeneratedFile[];
  errors: string[];
  notes: string[];
  stats: { files: number; groups: number; versions: number; kinds: number };
}

export async function generateFrom(set: SchemaSet): Promise<GenerateResult> {
  const stats = {
    files: set.files.length,
    groups: new Set(set.kinds().map((k) => k.gvk.group)).size,
    versions: new Set(set.kinds().map((k) => `${k.gvk.group}/${k.gvk.version}`)).size,
    kinds: set.kinds().length,
  };
  const errors = await validateSchemaSet(set);
  if (errors.length > 0) return { files: [], errors, notes: [], stats };
  const files: GeneratedFile[] = [];
  const notes: string[] = [];
  for (const emitter of emitters) {
    const result = emitter.emit(set);
    files.push(...result.files);
    for (const note of result.notes ?? []) notes.push(`${emitter.name}: ${note}`);
  }
  files.sort((a, b) => a.path.localeCompare(b.path));
  return { files, errors, notes, stats };
}

export function generate(schemaDir: string): Promise<GenerateResult> {
  return generateFrom(loadSchemaSet(schemaDir));
}
