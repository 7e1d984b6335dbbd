// The static cost estimator against cel-go's checker/cost_test.go TestCost: the same expressions, size
// hints by path (`input`, `input.@items`, `input.@keys`) and expected [min, max] cost ranges.
import { describe, expect, it } from "vitest";
import { estimateCost, type SizeEstimator } from "../../../../runtime/cel/checker/cost-estimator.js";
import type { CheckedAst } from "../../../../runtime/cel/common/ast.js";
import {
  BoolType,
  BytesType,
  type CelType,
  DoubleType,
  DurationType,
  DynType,
  IntType,
  listType,
  mapType,
  StringType,
  TimestampType,
} from "../../../../runtime/cel/common/cel-types.js";
import type { CostEstimate } from "../../../../runtime/cel/common/decls.js";
import { CelIssues } from "../../../../runtime/cel/common/issues.js";
import { CelEnv } from "../../../../runtime/cel/env.js";
import { bindingsLibrary } from "../../../../runtime/cel/library/bindings.js";
import { comprehensionsLibrary } from "../../../../runtime/cel/library/comprehensions.js";
import { optionalsLibrary } from "../../../../runtime/cel/library/optionals.js";
import { standardLibrary } from "../../../../runtime/cel/library/standard.js";
import { celGoTestMessagesLibrary, message } from "./cel-go-test-env.js";

const allTypes = message("google.expr.proto3.test.TestAllTypes", { single_int32: IntType });
const allList = listType(allTypes);
const intList = listType(IntType);
const allMap = mapType(StringType, allTypes);
const nestedMap = mapType(StringType, allMap);

const libraries = [standardLibrary, optionalsLibrary, bindingsLibrary, comprehensionsLibrary, celGoTestMessagesLibrary];

function compile(source: string, variables: Record<string, CelType>): { ast: CheckedAst; env: CelEnv } {
  const env = new CelEnv({
    libraries,
    variables: Object.entries(variables).map(([name, type]) => ({ name, type })),
  });
  const ast = env.compile(source);
  if (ast instanceof CelIssues) throw new Error(ast.toDisplayString());
  return { ast, env };
}

/** cel-go's testCostEstimator: sizes from hints keyed by the dotted path; getFullYear costs 7. */
function hinted(hints: Record<string, number>): SizeEstimator {
  return {
    estimateSize: (path) => {
      const max = hints[path.join(".")];
      return max === undefined ? undefined : { min: 0, max };
    },
    estimateCallCost: (_fn, overloadId) =>
      overloadId === "timestamp_to_year" ? { cost: { min: 7, max: 7 } } : undefined,
  };
}

interface Case {
  readonly expr: string;
  readonly vars?: Record<string, CelType>;
  readonly hints?: Record<string, number>;
  readonly presenceTestHasCost?: boolean;
  readonly want: readonly [number, number | bigint];
}

function estimate(c: Case): CostEstimate {
  const { ast, env } = compile(c.expr, c.vars ?? {});
  const options = c.presenceTestHasCost === undefined ? {} : { presenceTestHasCost: c.presenceTestHasCost };
  return estimateCost(ast, env, hinted(c.hints ?? {}), options);
}

/** Costs beyond 2^53 (cel-go's exact uint64, written as bigint) are doubles here: equal to the double's precision. */
function expectCost(actual: CostEstimate, [min, max]: readonly [number, number | bigint]): void {
  expect(actual.min).toBe(min);
  if (typeof max === "number") expect(actual.max).toBe(max);
  else expect(Math.abs(actual.max - Number(max)) / Number(max)).toBeLessThan(1e-15);
}

const strings = (...names: string[]): Record<string, CelType> => Object.fromEntries(names.map((n) => [n, StringType]));
const bools = (...names: string[]): Record<string, CelType> => Object.fromEntries(names.map((n) => [n, BoolType]));

const celGoCases: Record<string, Case> = {
  const: { expr: `"Hello World!"`, want: [0, 0] },
  identity: { expr: "input", vars: { input: intList }, want: [1, 1] },
  "select: map": { expr: "input['key']", vars: { input: mapType(StringType, StringType) }, want: [2, 2] },
  "select: field": { expr: "input.single_int32", vars: { input: allTypes }, want: [2, 2] },
  "select: field test only": { expr: "has(input.single_int32)", vars: { input: allTypes }, want: [2, 2] },
  "select: field test only no has() cost": {
    expr: "has(input.single_int32)",
    vars: { input: allTypes },
    presenceTestHasCost: false,
    want: [1, 1],
  },
  "select: non-proto field test": { expr: "has(input.testAttr.nestedAttr)", vars: { input: nestedMap }, want: [3, 3] },
  "select: non-proto field test no has() cost": {
    expr: "has(input.testAttr.nestedAttr)",
    vars: { input: nestedMap },
    presenceTestHasCost: false,
    want: [2, 2],
  },
  "estimated function call": { expr: "input.getFullYear()", vars: { input: TimestampType }, want: [8, 8] },
  "create list": { expr: "[1, 2, 3]", want: [10, 10] },
  "create struct": {
    expr: "google.expr.proto3.test.TestAllTypes{single_int32: 1, single_int64: 3}",
    want: [40, 40],
  },
  "create map": { expr: `{"a": 1, "b": 2, "c": 3}`, want: [30, 30] },
  "all comprehension": { expr: "input.all(x, true)", vars: { input: allList }, hints: { input: 100 }, want: [2, 302] },
  "nested all comprehension": {
    expr: "input.all(x, x.all(y, true))",
    vars: { input: listType(allList) },
    hints: { input: 50, "input.@items": 10 },
    want: [2, 1752],
  },
  "all comprehension on literal": { expr: "[1, 2, 3].all(x, true)", want: [20, 20] },
  "variable cost function": {
    expr: "input.matches('[0-9]')",
    vars: strings("input"),
    hints: { input: 500 },
    want: [3, 103],
  },
  "variable cost function with constant": { expr: "'123'.matches('[0-9]')", want: [2, 2] },
  or: { expr: "true || false", want: [0, 0] },
  "or accumulated branch cost": { expr: "a || b || c || d", vars: bools("a", "b", "c", "d"), want: [1, 4] },
  and: { expr: "true && false", want: [0, 0] },
  "and accumulated branch cost": { expr: "a && b && c && d", vars: bools("a", "b", "c", "d"), want: [1, 4] },
  lt: { expr: "1 < 2", want: [1, 1] },
  lte: { expr: "1 <= 2", want: [1, 1] },
  eq: { expr: "1 == 2", want: [1, 1] },
  gt: { expr: "2 > 1", want: [1, 1] },
  gte: { expr: "2 >= 1", want: [1, 1] },
  in: { expr: "2 in [1, 2, 3]", want: [13, 13] },
  plus: { expr: "1 + 1", want: [1, 1] },
  minus: { expr: "1 - 1", want: [1, 1] },
  divide: { expr: "1 / 1", want: [1, 1] },
  multiply: { expr: "1 * 1", want: [1, 1] },
  modulo: { expr: "1 % 1", want: [1, 1] },
  ternary: { expr: "true ? 1 : 2", want: [0, 0] },
  "string size": { expr: `size("123")`, want: [1, 1] },
  "bytes size": { expr: `size(b"123")`, want: [1, 1] },
  "bytes to string conversion": {
    expr: "string(input)",
    vars: { input: BytesType },
    hints: { input: 500 },
    want: [1, 51],
  },
  "bytes to string conversion equality": {
    expr: "string(input) == string(input)",
    vars: { input: BytesType },
    hints: { input: 500 },
    want: [3, 152],
  },
  "string to bytes conversion": { expr: "bytes(input)", vars: strings("input"), hints: { input: 500 }, want: [1, 51] },
  "string to bytes conversion equality": {
    expr: "bytes(input) == bytes(input)",
    vars: strings("input"),
    hints: { input: 500 },
    want: [3, 302],
  },
  "int to string conversion": { expr: "string(1)", want: [1, 1] },
  contains: {
    expr: "input.contains(arg1)",
    vars: strings("input", "arg1"),
    hints: { input: 500, arg1: 500 },
    want: [2, 2502],
  },
  matches: {
    expr: "input.matches('\\\\d+a\\\\d+b')",
    vars: strings("input"),
    hints: { input: 500 },
    want: [3, 103],
  },
  startsWith: {
    expr: "input.startsWith(arg1)",
    vars: strings("input", "arg1"),
    hints: { arg1: 500 },
    want: [2, 52],
  },
  endsWith: { expr: "input.endsWith(arg1)", vars: strings("input", "arg1"), hints: { arg1: 500 }, want: [2, 52] },
  "size receiver": { expr: "input.size()", vars: strings("input"), want: [2, 2] },
  size: { expr: "size(input)", vars: strings("input"), want: [2, 2] },
  "ternary eval": {
    expr: "(x > 2 ? input1 : input2).all(y, true)",
    vars: { x: IntType, input1: allList, input2: allList },
    hints: { input1: 1, input2: 1 },
    want: [4, 7],
  },
  "comprehension over map": {
    expr: "input.all(k, input[k].single_int32 > 3)",
    vars: { input: allMap },
    hints: { input: 10 },
    want: [2, 82],
  },
  "comprehension over nested map of maps": {
    expr: "input.all(k, input[k].all(x, true))",
    vars: { input: nestedMap },
    hints: { input: 5, "input.@values": 10 },
    want: [2, 187],
  },
  "string size of map keys": {
    expr: "input.all(k, k.contains(k))",
    vars: { input: nestedMap },
    hints: { input: 5, "input.@keys": 10 },
    want: [2, 32],
  },
  "comprehension variable shadowing": {
    expr: "input.all(k, input[k].all(k, true) && k.contains(k))",
    vars: { input: nestedMap },
    hints: { input: 2, "input.@values": 2, "input.@keys": 5 },
    want: [2, 34],
  },
  "list concat": {
    expr: "(list1 + list2).all(x, true)",
    vars: { list1: intList, list2: intList },
    hints: { list1: 10, list2: 10 },
    want: [4, 64],
  },
  "str concat": {
    expr: `"abcdefg".contains(str1 + str2)`,
    vars: strings("str1", "str2"),
    hints: { str1: 10, str2: 10 },
    want: [2, 6],
  },
  "list size comparison": {
    expr: "list1.size() == list2.size()",
    vars: { list1: intList, list2: intList },
    want: [5, 5],
  },
  "list size from ternary": {
    expr: "x > y ? list1.size() : list2.size()",
    vars: { x: IntType, y: IntType, list1: intList, list2: intList },
    want: [5, 5],
  },
  "list size from concat": {
    expr: "([x, y] + list1 + list2).size()",
    vars: { x: IntType, y: IntType, list1: intList, list2: intList },
    hints: { list1: 10, list2: 20 },
    want: [17, 17],
  },
  "list cost tracking through comprehension": {
    expr: "[list1, list2].exists(l, l.exists(v, v.startsWith('hi')))",
    vars: { list1: listType(StringType), list2: listType(StringType) },
    hints: { list1: 10, "list1.@items": 64, list2: 20, "list2.@items": 128 },
    want: [21, 265],
  },
  "str endsWith equality": {
    expr: `str1.endsWith("abcdefghijklmnopqrstuvwxyz") == str2.endsWith("abcdefghijklmnopqrstuvwxyz")`,
    vars: strings("str1", "str2"),
    want: [9, 9],
  },
  "nested subexpression operators": { expr: "((5 != 6) == (1 == 2)) == ((3 <= 4) == (9 != 9))", want: [7, 7] },
  "str size estimate": {
    expr: "string(timestamp1) == string(timestamp2)",
    vars: { timestamp1: TimestampType, timestamp2: TimestampType },
    want: [5, 1844674407370955268n],
  },
  "timestamp equality check": {
    expr: "timestamp1 == timestamp2",
    vars: { timestamp1: TimestampType, timestamp2: TimestampType },
    want: [3, 3],
  },
  "duration inequality check": {
    expr: "duration1 != duration2",
    vars: { duration1: DurationType, duration2: DurationType },
    want: [3, 3],
  },
  ".filter list literal": { expr: "[1,2,3,4,5].filter(x, x % 2 == 0)", want: [41, 101] },
  ".map list literal": { expr: "[1,2,3,4,5].map(x, x)", want: [86, 86] },
  ".map.filter list literal": { expr: "[1,2,3,4,5].map(x, x).filter(x, x % 2 == 0)", want: [117, 177] },
  ".map.exists list literal": { expr: "[1,2,3,4,5].map(x, x).exists(x, x == 5) == true", want: [108, 118] },
  ".map.map list literal": { expr: "[1,2,3,4,5].map(x, x).map(x, x)", want: [162, 162] },
  ".map list literal selection": { expr: "[1,2,3,4,5].map(x, x)[4]", want: [87, 87] },
  "nested array selection": { expr: "[[1,2],[1,2],[1,2],[1,2],[1,2]][4]", want: [61, 61] },
  "nested map selection": { expr: "{'a': [1,2], 'b': [1,2], 'c': [1,2], 'd': [1,2], 'e': [1,2]}.b", want: [81, 81] },
  "comprehension on nested list": {
    expr: "[[1, 1], [2, 2], [3, 3], [4, 4], [5, 5]].all(y, y.all(y, y == 1))",
    want: [76, 136],
  },
  "comprehension on transformed nested list": {
    expr: "[1,2,3,4,5].map(x, [x, x]).all(y, y.all(y, y == 1))",
    want: [157, 217],
  },
  "comprehension on nested literal list": {
    expr: `["a", "ab", "abc", "abcd", "abcde"].map(x, [x, x]).all(y, y.all(y, y.startsWith('a')))`,
    want: [157, 217],
  },
  "comprehension on nested variable list": {
    expr: "input.map(x, [x, x]).all(y, y.all(y, y.startsWith('a')))",
    vars: { input: listType(StringType) },
    hints: { input: 5, "input.@items": 10 },
    want: [13, 208],
  },
  "comprehension chaining with concat": { expr: "[1,2,3,4,5].map(x, x).map(x, x) + [1]", want: [173, 173] },
  "nested comprehension": { expr: "[1,2,3].all(i, i in [1,2,3].map(j, j + j))", want: [20, 230] },
  "nested dyn comprehension": { expr: "dyn([1,2,3]).all(i, i in dyn([1,2,3]).map(j, j + j))", want: [21, 234] },
  "literal map access": { expr: "{'hello': 'hi'}['hello'] != {'hello': 'bye'}['hello']", want: [63, 63] },
  "literal list access": { expr: "['hello', 'hi'][0] != ['hello', 'bye'][1]", want: [23, 23] },
  "type call": { expr: "type(1)", want: [1, 1] },
  "type call variable": { expr: "type(self.val1)", vars: { self: mapType(StringType, IntType) }, want: [3, 3] },
  "type call variable equality": {
    expr: "type(self.val1) == int",
    vars: { self: mapType(StringType, IntType) },
    want: [5, 1844674407370955268n],
  },
  "type literal equality cost": { expr: "type(1) == int", want: [3, 1844674407370955266n] },
  "namespace variable equality": { expr: "self.val1 == 1.0", vars: { "self.val1": DoubleType }, want: [2, 2] },
  "simple map variable equality": {
    expr: "self.val1 == 1.0",
    vars: { self: mapType(StringType, DoubleType) },
    want: [3, 3],
  },
  "date-time math": {
    expr: "self.val1 == timestamp('2011-08-18T00:00:00.000+01:00') + duration('19h3m37s10ms')",
    vars: { self: mapType(StringType, TimestampType) },
    want: [6, 6],
  },
  "date-time math self-conversion": {
    expr: "timestamp(self.val1) == timestamp('2011-08-18T00:00:00.000+01:00') + duration('19h3m37s10ms')",
    vars: { self: mapType(StringType, TimestampType) },
    want: [7, 7],
  },
  "boolean vars equal": { expr: "self.val1 != self.val2", vars: { self: mapType(StringType, BoolType) }, want: [5, 5] },
  "boolean var equals literal": {
    expr: "self.val1 != true",
    vars: { self: mapType(StringType, BoolType) },
    want: [3, 3],
  },
};

const bindCases: Record<string, Case> = {
  "literal init and scalar result": { expr: "cel.bind(a, 'hello', a + '!')", want: [12, 12] },
  "nested binds": { expr: "cel.bind(a, 'hello!', cel.bind(b, 'goodbye', a + ' and, ' + b))", want: [26, 26] },
  "shadowed bind": { expr: "cel.bind(a, cel.bind(a, 'world', a + '!'), 'hello ' + a)", want: [25, 25] },
  "variable list and index": { expr: "cel.bind(a, input, a[0])", vars: { input: intList }, want: [13, 13] },
  "variable map and index": {
    expr: "cel.bind(m, input, m['key'])",
    vars: { input: mapType(StringType, StringType) },
    want: [13, 13],
  },
  "comprehension and size hints": {
    expr: "cel.bind(a, input, a.all(x, true))",
    vars: { input: allList },
    hints: { input: 100 },
    want: [13, 313],
  },
  "nested with list and size hints": {
    expr: "cel.bind(a, input, a.all(x, x.all(y, true)))",
    vars: { input: listType(allList) },
    hints: { input: 50, "input.@items": 10 },
    want: [13, 1763],
  },
  "unused bind variable": { expr: "cel.bind(a, [1, 2, 3], 42)", want: [20, 20] },
  "derived size propagation to comprehension": { expr: "cel.bind(v, [1, 2, 3], v.all(x, true))", want: [31, 31] },
};

const twoVariableCases: Record<string, Case> = {
  "all: list literal": { expr: "[1, 2, 3].all(i, v, i < v)", want: [20, 29] },
  "all: list variable with hints": {
    expr: "input.all(i, v, true)",
    vars: { input: allList },
    hints: { input: 100 },
    want: [2, 302],
  },
  "all: map literal": { expr: `{"a": 1, "b": 2}.all(k, v, k != "" && v > 0)`, want: [37, 43] },
  "all: map variable with hints": {
    expr: "input.all(k, v, true)",
    vars: { input: allMap },
    hints: { input: 50 },
    want: [2, 152],
  },
  "exists: list literal": { expr: "[1, 2, 3].exists(i, v, i == 1 && v == 2)", want: [23, 35] },
  "exists: map literal": { expr: `{"a": 1, "b": 2}.exists(k, v, k == "a" && v == 1)`, want: [39, 47] },
  "existsOne: list literal": { expr: "[1, 2, 3].existsOne(i, v, v == 1)", want: [21, 24] },
  "exists_one: list literal": { expr: "[1, 2, 3].exists_one(i, v, v == 1)", want: [21, 24] },
  "transformList: list literal": { expr: "[1, 2, 3].transformList(i, v, i + v)", want: [66, 66] },
  "transformList with filter: list literal": {
    expr: "[1, 2, 3].transformList(i, v, i % 2 == 0, i + v)",
    want: [33, 75],
  },
  "transformList: map literal": { expr: `{"a": 1, "b": 2}.transformList(k, v, k)`, want: [67, 67] },
  "transformMap: map literal": { expr: `{"a": 1, "b": 2}.transformMap(k, v, v + 1)`, want: [71, 71] },
  "transformMap with filter: map literal": {
    expr: `{"a": 1, "b": 2}.transformMap(k, v, v > 1, v + 1)`,
    want: [67, 75],
  },
  "transformMapEntry: map literal": { expr: `{"a": 1, "b": 2}.transformMapEntry(k, v, {v: k})`, want: [129, 129] },
  "transformMapEntry with filter: map literal": {
    expr: `{"a": 1, "b": 2}.transformMapEntry(k, v, v > 1, {v: k})`,
    want: [67, 133],
  },
  "nested all": { expr: "[1, 2].all(i, v, [1, 2].all(j, w, i + j < v + w))", want: [17, 79] },
  "bind with two-variable all": { expr: "cel.bind(l, [1, 2, 3], l.all(i, v, i < v))", want: [31, 40] },
  "bind with two-variable transformList": {
    expr: `cel.bind(m, {"a": 1, "b": 2}, m.transformList(k, v, k))`,
    want: [78, 78],
  },
};

describe("static cost estimate (cel-go TestCost)", () => {
  it.each(Object.entries(celGoCases))("%s", (_name, c) => {
    expectCost(estimate(c), c.want);
  });
});

describe("cel.bind cost", () => {
  it.each(Object.entries(bindCases))("%s", (_name, c) => {
    expectCost(estimate(c), c.want);
  });
});

describe("two-variable comprehension cost", () => {
  it.each(Object.entries(twoVariableCases))("%s", (_name, c) => {
    expectCost(estimate(c), c.want);
  });
});

describe("optional field selection and indexing", () => {
  it.each<[string, Case]>([
    [
      "optional select costs as a call",
      { expr: "self.?val1", vars: { self: mapType(StringType, IntType) }, want: [2, 2] },
    ],
    [
      "selecting from an optional adds nothing",
      { expr: "self.?val1.val2", vars: { self: mapType(StringType, mapType(StringType, IntType)) }, want: [2, 2] },
    ],
    ["optional index on a list literal", { expr: "['hello', 'hi'][?0]", want: [11, 11] }],
    ["optional index on a map literal", { expr: "{'hello': 'hi'}[?'hello']", want: [31, 31] }],
    [
      "orValue on an optional select",
      { expr: "self.?val1.orValue(0) > 1", vars: { self: mapType(StringType, IntType) }, want: [4, 4] },
    ],
  ])("%s", (_name, c) => {
    expectCost(estimate(c), c.want);
  });
});

describe("sizes", () => {
  it("asks the size estimator by the select path from the variable", () => {
    const asked: string[] = [];
    const { ast, env } = compile("self.spec.name.size() > 0 && self.spec.tags.all(t, t.startsWith(self.spec.name))", {
      self: mapType(StringType, mapType(StringType, DynType)),
    });
    estimateCost(ast, env, {
      estimateSize: (path) => {
        asked.push(path.join("."));
        return undefined;
      },
    });
    expect(asked).toContain("self.spec.name");
    expect(asked).toContain("self.spec.tags");
  });

  it("is deterministic", () => {
    const c = celGoCases["comprehension on nested variable list"] as Case;
    expect(estimate(c)).toEqual(estimate(c));
  });

  it("saturates at 2^64 instead of overflowing", () => {
    const c: Case = {
      expr: "input.all(x, input.all(y, input.all(z, x.contains(y + z))))",
      vars: { input: listType(StringType) },
      want: [0, 0],
    };
    expect(estimate(c).max).toBe(2 ** 64);
  });
});
