// Table tests for Kubernetes' lists library (runtime/cel/library/kubernetes/lists.ts): isSorted, sum,
// min, max, indexOf and lastIndexOf by overload id, with the examples and error texts of
// k8s.io/apiserver/pkg/cel/library/lists.go, and Kubernetes' cost formulas.
import { describe, expect, it } from "vitest";
import { IntType, listType, StringType } from "../../../../../runtime/cel/common/cel-types.js";
import {
  ArrayList,
  CelDuration,
  CelError,
  CelTimestamp,
  CelUint,
  type CelValue,
  INT64_MAX,
} from "../../../../../runtime/cel/common/values.js";
import { listsLibrary } from "../../../../../runtime/cel/library/kubernetes/kubernetes-lists.js";
import type { ContextualCost } from "../../../../../runtime/cel/library/kubernetes-call-cost.js";
import { evaluator, itHolds } from "../evaluate.js";
import { call, overload } from "./call-overload.js";

const list = (...items: CelValue[]) => new ArrayList(items);
const err = (error: string) => ({ error });
const seconds = (s: number) => new CelDuration(BigInt(s) * 1_000_000_000n);
const at = (s: number) => new CelTimestamp(BigInt(s), 0);
const bytes = (s: string) => new TextEncoder().encode(s);

function plain(v: CelValue): unknown {
  return v instanceof CelError ? { error: v.message } : v;
}

function table(id: string, cases: readonly (readonly [CelValue[], unknown])[]): void {
  describe(id, () => {
    cases.forEach(([args, expected], i) => {
      it(`case ${i}`, () => {
        expect(plain(call(listsLibrary, id, ...args))).toEqual(expected);
      });
    });
  });
}

describe("isSorted", () => {
  table("list_int_is_sorted_bool", [
    [[list(1n, 2n, 3n)], true],
    [[list()], true],
    [[list(1n)], true],
    [[list(3n, 1n)], false],
    // Pairs that cannot be ordered are skipped, as cel-go ignores the comparison error.
    [[list(1n, "a")], true],
    [[list(1n, 2.5, new CelUint(3n))], true],
    [[list(1n, null)], err("no such overload")],
  ]);
  table("list_string_is_sorted_bool", [
    [[list("a", "b", "b", "c")], true],
    [[list("b", "a")], false],
    [[list("\uffff", "😀")], true],
  ]);
  table("list_double_is_sorted_bool", [[[list(2.0, 1.0)], false]]);
  table("list_duration_is_sorted_bool", [[[list(seconds(1), seconds(60))], true]]);
  table("list_timestamp_is_sorted_bool", [[[list(at(10), at(5))], false]]);
  table("list_bytes_is_sorted_bool", [[[list(bytes("a"), bytes("ab"))], true]]);
  table("list_bool_is_sorted_bool", [[[list(false, true)], true]]);
});

describe("sum", () => {
  table("list_int_sum_int", [
    [[list(1n, 3n)], 4n],
    [[list()], 0n],
    [[list(INT64_MAX, 1n)], err("integer overflow")],
    [[list(1n, 2.5)], err("no such overload")],
  ]);
  table("list_uint_sum_uint", [
    [[list(new CelUint(1n), new CelUint(2n))], new CelUint(3n)],
    [[list()], new CelUint(0n)],
  ]);
  table("list_double_sum_double", [
    [[list(1.0, 3.0)], 4],
    [[list()], 0],
  ]);
  table("list_duration_sum_duration", [
    [[list(seconds(60), seconds(1))], seconds(61)],
    [[list()], seconds(0)],
  ]);
});

describe("min and max", () => {
  table("list_int_min_int", [
    [[list(1n, 3n)], 1n],
    [[list(3n, 1n, 2n)], 1n],
    [[list()], err("min called on empty list")],
    [[list(2n, 1.5)], 1.5],
  ]);
  table("list_int_max_int", [
    [[list(1n, 3n)], 3n],
    [[list()], err("max called on empty list")],
  ]);
  table("list_string_min_string", [[[list("b", "a", "c")], "a"]]);
  table("list_timestamp_max_timestamp", [[[list(at(1), at(9), at(5))], at(9)]]);
  table("list_duration_min_duration", [[[list(seconds(9), seconds(2))], seconds(2)]]);
  table("list_double_min_double", [[[list(Number.NaN, 1.0)], Number.NaN]]);
  table("list_bytes_max_bytes", [[[list(bytes("a"), bytes("b"))], bytes("b")]]);
});

describe("indexOf and lastIndexOf", () => {
  table("list_a_index_of_int", [
    [[list(1n, 2n, 2n, 3n), 2n], 1n],
    [[list(1.0), 1.1], -1n],
    [[list(), "string"], -1n],
    [[list(1n, new CelUint(2n)), 2.0], 1n],
    [[list(list(1n), list(2n)), list(2n)], 1n],
  ]);
  table("list_a_last_index_of_int", [
    [[list("a", "b", "b", "c"), "b"], 2n],
    [[list("a"), "z"], -1n],
  ]);
});

describe("lists costs (Kubernetes' estimator)", () => {
  const context = (elementSize: { min: number; max: number }, argTypes = [listType(StringType)]) => ({
    argTypes,
    elementSize: () => elementSize,
    literal: () => undefined,
  });
  it("estimates one comparison per element", () => {
    expect(overload(listsLibrary, "list_int_sum_int").cost?.estimate?.([{ min: 0, max: 10 }])).toEqual({
      min: 0,
      max: 10,
    });
  });
  it("adds a traversal of each string element", () => {
    const cost = overload(listsLibrary, "list_string_is_sorted_bool").cost as ContextualCost;
    expect(cost?.estimate?.([{ min: 2, max: 10 }], undefined, context({ min: 0, max: 20 }))).toEqual({
      min: 2,
      max: 30,
    });
  });
  it("takes indexOf's element type from the checked receiver", () => {
    const cost = overload(listsLibrary, "list_a_index_of_int").cost as ContextualCost;
    expect(cost?.estimate?.([{ min: 0, max: 10 }], undefined, context({ min: 0, max: 20 }))).toEqual({
      min: 0,
      max: 30,
    });
    const ints = context({ min: 0, max: 20 }, [listType(IntType)]);
    expect(cost?.estimate?.([{ min: 0, max: 10 }], undefined, ints)).toEqual({ min: 0, max: 10 });
  });
  it("charges a traversal of the list at run time", () => {
    const cost = overload(listsLibrary, "list_string_max_string").cost;
    expect(cost?.actual?.([list("abc", "defghijklmnop")], "defghijklmnop")).toBe(1);
    expect(overload(listsLibrary, "list_int_min_int").cost?.actual?.([list(1n, 2n, 3n)], 1n)).toBe(3);
  });
});

describe("lists end to end", () => {
  const evaluate = evaluator(listsLibrary);
  const holds = [
    "[1, 2, 3].isSorted() && ['a', 'b', 'b', 'c'].isSorted() && ![2.0, 1.0].isSorted()",
    "[1, 3].sum() == 4 && [1.0, 3.0].sum() == 4.0 && [duration('1m'), duration('1s')].sum() == duration('61s')",
    "[1, 3].min() == 1 && [1, 3].max() == 3 && ['b', 'a'].min() == 'a'",
    "[timestamp('2020-01-01T00:00:00Z'), timestamp('2021-01-01T00:00:00Z')].max() == timestamp('2021-01-01T00:00:00Z')",
    "[1, 2, 2, 3].indexOf(2) == 1 && ['a', 'b', 'b', 'c'].lastIndexOf('b') == 2 && [1.0].indexOf(1.1) == -1",
    "dyn([1, 2u, 3.0]).isSorted()",
  ];
  itHolds(evaluate, holds);
  it("fails on an empty list", () => {
    expect(evaluate("[].min()")).toMatchObject({ value: new CelError("min called on empty list") });
  });
  it("refuses a list of a type it does not order", () => {
    expect(evaluate("[[1], [2]].isSorted()")).toContain("found no matching overload for 'isSorted'");
  });
});
