// The parser against cel-spec's test data: every expression of cel-go's parser, checker and
// comprehension tests and of the conformance suite, parsed as cel-go parsed it when the data was
// generated. Where cel-go parsed, the adorned debug string must be cel-go's; where it failed, the
// error text must be cel-go's, character for character.
import { tests as checking } from "@bufbuild/cel-spec/testdata/checking.js";
import { tests as comprehension } from "@bufbuild/cel-spec/testdata/comprehension.js";
import { tests as conformance } from "@bufbuild/cel-spec/testdata/conformance.js";
import { tests as parsing } from "@bufbuild/cel-spec/testdata/parsing.js";
import type { SerializedIncrementalTest, SerializedIncrementalTestSuite } from "@bufbuild/cel-spec/testdata/tests.js";
import { describe, expect, it } from "vitest";
import { kindAdorner, toDebugString } from "../../../../runtime/cel/common/debug-string.js";
import { CelIssues } from "../../../../runtime/cel/common/issues.js";
import { parse } from "../../../../runtime/cel/parser/parser.js";
import { STANDARD_MACROS, TEST_DATA_PARSER } from "./support.js";

/** What differs from cel-go's output for one test, or undefined. */
function compare(test: SerializedIncrementalTest): string | undefined {
  const expr = test.original.expr;
  const result = parse(expr, { ...TEST_DATA_PARSER, description: test.original.name ?? "" });
  if (test.ast !== undefined) {
    if (result instanceof CelIssues) return `${expr}: unexpected error\n${result.toDisplayString()}`;
    const ast = toDebugString(result.expr, kindAdorner);
    return ast === test.ast ? undefined : `${expr}:\n${ast}\n--- want\n${test.ast}`;
  }
  if (test.error === undefined) return undefined;
  if (!(result instanceof CelIssues)) return `${expr}: parsed, want\n${test.error}`;
  const error = result.toDisplayString();
  return error === test.error ? undefined : `${expr}:\n${error}\n--- want\n${test.error}`;
}

function sections(suite: SerializedIncrementalTestSuite, path = suite.name): [string, SerializedIncrementalTest[]][] {
  const own: [string, SerializedIncrementalTest[]][] = suite.tests?.length ? [[path, suite.tests]] : [];
  return own.concat((suite.suites ?? []).flatMap((s) => sections(s, `${path}/${s.name}`)));
}

describe("cel-go's parser tests (parsing.js)", () => {
  it.each((parsing.tests ?? []).map((t) => [t.original.expr, t] as const))("%s", (_, test) => {
    expect(compare(test)).toBeUndefined();
  });
});

describe.each([
  ["checking.js", checking],
  ["comprehension.js", comprehension],
  ["conformance.js", conformance],
])("%s", (_, suite) => {
  it.each(sections(suite))("%s", (_, tests) => {
    expect(tests.map(compare).filter((m) => m !== undefined)).toEqual([]);
  });
});

describe("conformance expressions at cel-go's default limits, all syntax enabled", () => {
  const options = { macros: STANDARD_MACROS, enableOptionalSyntax: true, enableIdentEscapeSyntax: true };
  // cel.block's tests need the block extension's handling of cel.iterVar(…) as iteration variable.
  const suites = (conformance.suites ?? []).filter((s) => s.name !== "block_ext");

  it.each(suites.flatMap((s) => sections(s)))("%s parses", (_, tests) => {
    const failures = tests.flatMap((t) => {
      const result = parse(t.original.expr, options);
      return result instanceof CelIssues ? [`${t.original.expr}\n${result.toDisplayString()}`] : [];
    });
    expect(failures).toEqual([]);
  });

  it("parses the parse section as cel-go did, beyond the test data's nesting limit of 32", () => {
    const parseSuite = suites.find((s) => s.name === "parse");
    const tests = sections(parseSuite as SerializedIncrementalTestSuite).flatMap(([, t]) => t);
    expect(tests.length).toBeGreaterThan(100);
    for (const test of tests) {
      const result = parse(test.original.expr, options);
      if (result instanceof CelIssues) throw new Error(result.toDisplayString());
      if (test.ast !== undefined) expect(toDebugString(result.expr, kindAdorner)).toBe(test.ast);
    }
  });
});
