import { describe, expect, it } from "vitest";
import {
  durationLiteralIssues,
  homogeneousAggregateIssues,
  literalValidatorsLibrary,
} from "../../../../runtime/cel/checker/literal-validators.js";
import { DynType } from "../../../../runtime/cel/common/cel-types.js";
import { CelIssues } from "../../../../runtime/cel/common/issues.js";
import { CelEnv } from "../../../../runtime/cel/env.js";
import { standardLibrary } from "../../../../runtime/cel/library/standard.js";
import { stringsLibrary } from "../../../../runtime/cel/library/strings.js";
import { kubernetesBaseEnv } from "../../../../runtime/cel/rules/base-environment.js";

const env = kubernetesBaseEnv().extend([{ name: "x", type: DynType }]);

function compileError(source: string): string | undefined {
  const result = env.compile(source);
  return result instanceof CelIssues ? result.toDisplayString() : undefined;
}

describe("literal validators in Kubernetes' base environment", () => {
  it.each([
    [
      "duration('1x') > duration('1s')",
      "ERROR: <input>:1:10: invalid duration argument\n | duration('1x') > duration('1s')\n | .........^",
    ],
    ["timestamp('2023-13-01T00:00:00Z') == x", "ERROR: <input>:1:11: invalid timestamp argument"],
    ["timestamp(253402300800) == x", "ERROR: <input>:1:11: invalid timestamp argument"],
    ["'abc'.matches('[')", "ERROR: <input>:1:15: invalid matches argument\n | 'abc'.matches('[')\n | ..............^"],
    ["x.matches('[')", "ERROR: <input>:1:11: invalid matches argument"],
    ["[1, 'a', 2.0] == x", "ERROR: <input>:1:5: expected type 'int' but found 'string'"],
    // A global call sits at its parenthesis, as cel-go positions it.
    ["[1, dyn(2)] == x", "ERROR: <input>:1:8: expected type 'int' but found 'dyn'"],
    ["[[1], ['a']] == x", "ERROR: <input>:1:7: expected type 'list(int)' but found 'list(string)'"],
    ["[timestamp(0), 1] == x", "ERROR: <input>:1:16: expected type 'google.protobuf.Timestamp' but found 'int'"],
  ])("%s is refused", (source, expected) => {
    expect(compileError(source)).toContain(expected);
  });

  it("reports every odd key and value of a map literal, in source order", () => {
    expect(compileError("{'a': 1, 2: 'b'} == x")).toBe(
      [
        "ERROR: <input>:1:10: expected type 'string' but found 'int'",
        " | {'a': 1, 2: 'b'} == x",
        " | .........^",
        "ERROR: <input>:1:13: expected type 'int' but found 'string'",
        " | {'a': 1, 2: 'b'} == x",
        " | ............^",
      ].join("\n"),
    );
  });

  it.each([
    "duration('1h30m') > duration('0s')",
    "timestamp('2023-01-01T00:00:00Z') < timestamp(0)",
    "'abc'.matches('^[a-z]+$')",
    "duration(x) > duration('1s')",
    "[[], [1]] == x && [1, 2] == x",
    "[?optional.of(1), 2] == x",
    "{'a': 1, 'b': 2} == x",
    "'%s is %d'.format(['a', 1]) == x",
    "'%s'.format([[1, 'a']]) == x",
  ])("%s compiles", (source) => {
    expect(compileError(source)).toBeUndefined();
  });

  it("checks the first argument of the global matches, as cel-go does", () => {
    expect(compileError("matches('(', 'a')")).toContain("ERROR: <input>:1:9: invalid matches argument");
  });
});

describe("validators on their own", () => {
  const plain = new CelEnv({ libraries: [standardLibrary, stringsLibrary] });
  const withValidators = new CelEnv({ libraries: [standardLibrary, literalValidatorsLibrary] });

  it("are off without the library", () => {
    expect(plain.compile("[1, 'a'] == [] && duration('x') == duration('1s')")).not.toBeInstanceOf(CelIssues);
    expect(withValidators.compile("[1, 'a'] == []")).toBeInstanceOf(CelIssues);
  });

  it("exempt only the functions named", () => {
    const checked = plain.compile("'%s %s'.format([1, 'a']) == ''");
    if (checked instanceof CelIssues) throw new Error(checked.toDisplayString());
    expect(homogeneousAggregateIssues()(checked)).toHaveLength(1);
    expect(homogeneousAggregateIssues(["format"])(checked)).toHaveLength(0);
    expect(durationLiteralIssues(checked)).toHaveLength(0);
  });
});
