// Golden cases: test/golden/<case>/schemas in, test/golden/<case>/generated.expected.d/ the expected files
// (a `.d` folder so the expected TypeScript typechecks in place without being taken for sources).
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import type { Emitter } from "../../generator/emit/emitter.js";
import { loadSchemaSet } from "../../generator/schema/schema-set.js";

function filesBelow(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesBelow(path));
    else out.push(path);
  }
  return out;
}

/** Emitted and expected files of a golden case, each as path → content, for one `toEqual`. */
export function runGoldenCase(
  caseDir: string,
  emitters: Emitter[],
): { actual: Record<string, string>; expected: Record<string, string> } {
  const set = loadSchemaSet(join(caseDir, "schemas"));
  const actual: Record<string, string> = {};
  for (const emitter of emitters) for (const f of emitter.emit(set).files) actual[f.path] = f.content;
  const expectedDir = join(caseDir, "generated.expected.d");
  const expected: Record<string, string> = {};
  for (const path of filesBelow(expectedDir).sort()) {
    expected[relative(expectedDir, path).replace(/\\/g, "/")] = readFileSync(path, "utf8");
  }
  return { actual, expected };
}
