// generated/registry.ts: every kind of every group/version with its REST mapping and the name of its strategy,
// the one table the runtime reads to know what differs between kinds; and generated/strategies.ts, the strategy
// modules by name. The two are apart so the table sits low in the runtime's layers and the strategies, which
// use the whole API (reviews, tokens), sit high: the server hands the second to its KindRegistry.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type JsonPath, JsonPathError, parseJsonPath } from "../../runtime/codecs/json-path.js";
import type { KindEntry, ResourceMapping, SchemaFile, SchemaNode } from "../schema/model.js";
import type { KindInfo, SchemaSet } from "../schema/schema-set.js";
import { type EmitResult, type Emitter, generatedHeader } from "./emitter.js";
import { apiVersionOf, camelCase } from "./naming.js";
import { Code, tsLiteral } from "./ts-literal.js";

export const registryPath = "registry.ts";
export const strategiesPath = "strategies.ts";

export interface RegistryEmitterOptions {
  /** Whether runtime/strategies/<name>.ts exists: a kind naming a missing module gets a note, not an import. */
  strategyExists(name: string): boolean;
}

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));

function strategyBinding(name: string): string {
  return `${camelCase(name)}Strategy`;
}

function resourceRecord(r: ResourceMapping): Record<string, unknown> {
  return {
    plural: r.plural,
    singular: r.singular,
    scope: r.scope,
    nameFormat: r.nameFormat,
    verbs: r.verbs,
    shortNames: r.shortNames ?? [],
    categories: r.categories ?? [],
    subresources: (r.subresources ?? []).map((s) => ({
      name: s.name,
      verbs: s.verbs,
      kind: s.kind,
      scale: s.scale,
      hook: s.hook,
    })),
    storageVersion: r.storageVersion ?? false,
    storedAs: r.storedAs,
    virtual: r.virtual ?? false,
    printerColumns: r.printerColumns ?? [],
    selectableFields: r.selectableFields ?? [],
    fieldLabelConversion: r.fieldLabelConversion && {
      error: r.fieldLabelConversion.error,
      namespace: r.fieldLabelConversion.namespace ?? true,
    },
  };
}

type SchemaPathStep = JsonPath["nodes"][number];

interface SchemaPlace {
  fileId: string;
  node: SchemaNode;
}

/**
 * Where one path step leads below `at`: a property (or a map's values), a list's items; `at` itself when
 * the schema says nothing of what is below (a stub, a free-form object); undefined below a scalar or where
 * the schema has no such field.
 */
function stepInto(set: SchemaSet, at: SchemaPlace, step: SchemaPathStep): SchemaPlace | undefined {
  let { fileId, node } = at;
  if (node.$ref) {
    const id = set.resolveRef(fileId, node.$ref);
    const def = set.tryDefinition(id);
    if (!def) return undefined;
    fileId = id.fileId;
    node = def;
  }
  const values = typeof node.additionalProperties === "object" ? node.additionalProperties : undefined;
  if (node.properties === undefined && values === undefined && node.items === undefined) {
    return node.type === undefined || node.type === "object" ? { fileId, node } : undefined;
  }
  const next =
    step.type === "field" ? (node.properties?.[step.name] ?? values) : step.type === "array" ? node.items : undefined;
  return next && { fileId, node: next };
}

function pathInSchema(set: SchemaSet, start: SchemaPlace, source: string): boolean {
  let at: SchemaPlace | undefined = start;
  try {
    for (const step of parseJsonPath(source).nodes) if (at) at = stepInto(set, at, step);
  } catch (error) {
    if (!(error instanceof JsonPathError)) throw error;
    return false;
  }
  return at !== undefined;
}

/** Notes for selectable field paths that do not parse or do not name a field of the kind's definition. */
function selectableFieldNotes(set: SchemaSet, info: KindInfo): string[] {
  const definition = info.file.file.definitions[info.entry.kind];
  if (!definition) return [];
  const notes: string[] = [];
  for (const field of info.entry.resource?.selectableFields ?? []) {
    const label = typeof field === "string" ? field : field.label;
    const paths = typeof field === "string" ? [`.${field}`] : (field.jsonPaths ?? [`.${field.label}`]);
    for (const source of paths) {
      if (pathInSchema(set, { fileId: info.file.id, node: definition }, source)) continue;
      notes.push(`${kindName(info)}: selectable field ${label}: ${source} is not a field of ${info.entry.kind}`);
    }
  }
  return notes;
}

function kindRecord(file: SchemaFile, entry: KindEntry, info: KindInfo, strategy: string | undefined): unknown {
  const stability = file.stability ?? "stable";
  const lifecycle = file.lifecycle || entry.lifecycle ? { ...file.lifecycle, ...entry.lifecycle } : undefined;
  return {
    group: info.gvk.group,
    version: info.gvk.version,
    kind: entry.kind,
    listKind: entry.listKind,
    stability,
    enabledByDefault: file.enabledByDefault ?? stability === "stable",
    priority: file.priority,
    lifecycle,
    resource: entry.resource ? resourceRecord(entry.resource) : undefined,
    strategy,
  };
}

function hookNote(info: KindInfo): string | undefined {
  const r = info.entry.resource;
  const hooks = (r?.subresources ?? []).filter((s) => s.hook !== undefined).map((s) => s.hook);
  if (!r || hooks.length === 0) return undefined;
  const what =
    hooks.length === 1
      ? `hook ${hooks[0]} of resource ${r.plural} has`
      : `hooks ${hooks.join(", ")} of resource ${r.plural} have`;
  return `${kindName(info)}: ${what} no handler yet`;
}

function kindName(info: KindInfo): string {
  return `${apiVersionOf(info.gvk.group, info.gvk.version)} ${info.gvk.kind}`;
}

export function createRegistryEmitter(options: RegistryEmitterOptions): Emitter {
  return {
    name: "registry",
    emit(set: SchemaSet): EmitResult {
      const notes: string[] = [];
      const strategies = new Set<string>();
      const records: unknown[] = [];
      for (const info of set.kinds()) {
        const name = info.entry.strategy;
        let strategy: string | undefined;
        if (name !== undefined && options.strategyExists(name)) {
          strategies.add(name);
          strategy = name;
        } else if (name !== undefined) {
          notes.push(`${kindName(info)}: strategy module runtime/strategies/${name}.ts does not exist`);
        }
        const hooks = hookNote(info);
        if (hooks) notes.push(hooks);
        notes.push(...selectableFieldNotes(set, info));
        records.push(kindRecord(info.file.file, info.entry, info, strategy));
      }
      const sources = [...new Set(set.kinds().map((k) => k.file.path))];
      const names = [...strategies].sort();
      const content =
        generatedHeader(sources) +
        `import type { KindRecord } from "../runtime/registry/kind-record.js";\n\n` +
        `export const kinds: readonly KindRecord[] = ${tsLiteral(records)};\n`;
      const strategiesContent =
        generatedHeader(sources) +
        `import type { KindStrategy } from "../runtime/strategies/hook-request.js";\n` +
        names
          .map((s) => `import { strategy as ${strategyBinding(s)} } from "../runtime/strategies/${s}.js";\n`)
          .join("") +
        `\nexport const strategies: Readonly<Record<string, KindStrategy>> = ${tsLiteral(
          Object.fromEntries(names.map((s) => [s, new Code(strategyBinding(s))])),
        )};\n`;
      return {
        files: [
          { path: registryPath, content },
          { path: strategiesPath, content: strategiesContent },
        ],
        notes,
      };
    },
  };
}

export const registryEmitter: Emitter = createRegistryEmitter({
  strategyExists: (name) => existsSync(join(repoRoot, "runtime", "strategies", `${name}.ts`)),
});
