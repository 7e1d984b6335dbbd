// The cel-spec simple conformance suite through kapi's CEL engine. Every test of the required files
// passes except the protobuf-message tests listed in skip-list.ts; the table of passed / skipped / failed
// per file is printed for the issue notes. Set CEL_CONFORMANCE_FAILURES=<path> to write every failure
// (required or not) as JSON for triage.
import { writeFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { conformanceLibraries } from "./libraries.js";
import { type Outcome, runCase } from "./runner.js";
import { SKIPPED } from "./skip-list.js";
import { bundledSource, type ConformanceCase, type ConformanceSource, caseKey, textprotoSource } from "./suite.js";

/**
 * The files issue 6 requires at 100% (protobuf-message tests excepted), plus the extensions kapi carries
 * (math_ext, encoders_ext) and namespace resolution.
 */
const REQUIRED = [
  "basic",
  "comparisons",
  "conversions",
  "dynamic",
  "fields",
  "integer_math",
  "fp_math",
  "lists",
  "logic",
  "macros",
  "macros2",
  "parse",
  "plumbing",
  "string",
  "timestamps",
  "type_deduction",
  "optionals",
  "string_ext",
  "bindings_ext",
  "network_ext",
  "math_ext",
  "encoders_ext",
  "namespace",
];

interface FileResult {
  readonly source: string;
  readonly file: string;
  readonly passed: number;
  readonly skipped: number;
  readonly failures: readonly { key: string; expr: string; outcome: Outcome }[];
  readonly messageMismatches: readonly { key: string; expr: string; expected: string; actual: string }[];
}

const results: FileResult[] = [];

function runFile(source: string, file: string, cases: readonly ConformanceCase[]): FileResult {
  let passed = 0;
  let skipped = 0;
  const messageMismatches: FileResult["messageMismatches"][number][] = [];
  const failures: FileResult["failures"][number][] = [];
  for (const c of cases) {
    const key = caseKey(c);
    if (SKIPPED[key] !== undefined) {
      skipped++;
      continue;
    }
    const outcome = runCase(c, conformanceLibraries);
    if (outcome.status === "pass") {
      passed++;
      if (outcome.messageMismatch) messageMismatches.push({ key, expr: c.test.expr, ...outcome.messageMismatch });
    } else failures.push({ key, expr: c.test.expr, outcome });
  }
  return { source, file, passed, skipped, failures, messageMismatches };
}

function describeSource(source: ConformanceSource): void {
  describe(source.name, () => {
    for (const file of REQUIRED) {
      const cases = source.files.get(file);
      it.skipIf(cases === undefined)(`${file}: every test passes or is a listed protobuf skip`, () => {
        const result = runFile(source.name, file, cases ?? []);
        results.push(result);
        expect(result.failures.map((f) => `${f.key}: ${f.expr}`)).toEqual([]);
        expect(result.passed).toBe((cases ?? []).length - result.skipped);
      });
    }
  });
}

describeSource(bundledSource());
const newest = textprotoSource();
if (newest) describeSource(newest);
else describe.skip("cel-spec textproto corpus (absent)", () => {});

describe("skip list", () => {
  it("names only tests that exist in a source", () => {
    const keys = new Set<string>();
    for (const source of [bundledSource(), newest]) {
      for (const cases of source?.files.values() ?? []) for (const c of cases) keys.add(caseKey(c));
    }
    expect(Object.keys(SKIPPED).filter((k) => !keys.has(k))).toEqual([]);
  });
});

afterAll(() => {
  const rows = results.map(
    (r) =>
      `${r.source.padEnd(28)} ${r.file.padEnd(16)} ${String(r.passed).padStart(6)} ${String(r.skipped).padStart(7)} ${String(r.failures.length).padStart(6)} ${String(r.messageMismatches.length).padStart(9)}`,
  );
  console.log([`${"source".padEnd(28)} ${"file".padEnd(16)} passed skipped failed msg-diff`, ...rows].join("\n"));
  const out = process.env.CEL_CONFORMANCE_FAILURES;
  if (out) {
    const failures = results.flatMap((r) => r.failures.map((f) => ({ source: r.source, ...f })));
    const messageMismatches = results.flatMap((r) => r.messageMismatches.map((m) => ({ source: r.source, ...m })));
    writeFileSync(out, JSON.stringify({ failures, messageMismatches }, null, 2));
  }
});
