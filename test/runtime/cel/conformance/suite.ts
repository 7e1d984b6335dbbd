// The cel-spec simple conformance tests, as proto-JSON SimpleTest objects grouped by file. Two sources:
// the copy `@bufbuild/cel-spec` ships (cel-spec v0.25.1, always available) and the newest textproto files
// under /work/shared/corpora (present in CI and on the development machine only), read with
// @bufbuild/protobuf's text-format parser and turned into the same proto-JSON shape.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { SimpleTestFileSchema } from "@bufbuild/cel-spec/cel/expr/conformance/test/simple_pb.js";
import { tests as bundled } from "@bufbuild/cel-spec/testdata/conformance.js";
import { getTestRegistry } from "@bufbuild/cel-spec/testdata/registry.js";
import { type JsonObject, toJson } from "@bufbuild/protobuf";
import { fromText } from "@bufbuild/protobuf/txtpb";

export const TEXTPROTO_DIR = "/work/shared/corpora/cel-spec/tests/simple/testdata";

/** One SimpleTest in proto-JSON form (camelCase fields, int64 as strings, bytes as base64). */
export type SimpleTestJson = JsonObject & { name: string; expr: string };

export interface ConformanceCase {
  readonly file: string;
  readonly section: string;
  readonly test: SimpleTestJson;
}

export interface ConformanceSource {
  readonly name: string;
  readonly files: ReadonlyMap<string, readonly ConformanceCase[]>;
}

/** The bundled copy names the type-deduction file after its package directory; use the textproto file name. */
const FILE_ALIASES: Readonly<Record<string, string>> = { type_deductions: "type_deduction" };

/** Source A: `@bufbuild/cel-spec/testdata/conformance.js`. */
export function bundledSource(): ConformanceSource {
  const files = new Map<string, ConformanceCase[]>();
  for (const suite of bundled.suites ?? []) {
    const file = FILE_ALIASES[suite.name] ?? suite.name;
    const cases: ConformanceCase[] = [];
    for (const section of suite.suites ?? []) {
      for (const t of section.tests ?? []) {
        cases.push({ file, section: section.name, test: t.original as SimpleTestJson });
      }
    }
    files.set(file, cases);
  }
  return { name: "@bufbuild/cel-spec v0.25.1", files };
}

/** Source B: the textproto files, or undefined when the corpus is absent. */
export function textprotoSource(dir = TEXTPROTO_DIR): ConformanceSource | undefined {
  if (!existsSync(dir)) return undefined;
  const registry = getTestRegistry();
  const files = new Map<string, ConformanceCase[]>();
  for (const entry of readdirSync(dir)
    .filter((f) => f.endsWith(".textproto"))
    .sort()) {
    const message = fromText(SimpleTestFileSchema, readFileSync(join(dir, entry), "utf8"), { registry });
    const json = toJson(SimpleTestFileSchema, message, { registry }) as JsonObject;
    const file = entry.replace(/\.textproto$/, "");
    const cases: ConformanceCase[] = [];
    for (const section of (json.section ?? []) as JsonObject[]) {
      for (const test of (section.test ?? []) as SimpleTestJson[]) {
        cases.push({ file, section: section.name as string, test });
      }
    }
    files.set(file, cases);
  }
  return { name: "cel-spec textproto (newest)", files };
}

/** The key a case is listed under in the skip list. */
export function caseKey(c: ConformanceCase): string {
  return `${c.file}/${c.section}/${c.test.name}`;
}
