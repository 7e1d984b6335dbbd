// Table tests for cel-go's ext.Sets (runtime/cel/library/kubernetes/sets.ts), with the examples of
// cel-go's documentation and its cost formulas.
import { describe, expect, it } from "vitest";
import { ArrayList, CelUint, type CelValue } from "../../../../../runtime/cel/common/values.js";
import { setsLibrary } from "../../../../../runtime/cel/library/kubernetes/sets.js";
import { evaluator, itHolds } from "../evaluate.js";
import { call, overload } from "./call-overload.js";

const list = (...items: CelValue[]) => new ArrayList(items);
const u = (n: bigint) => new CelUint(n);

const cases: readonly (readonly [string, ArrayList, ArrayList, boolean])[] = [
  ["list_sets_contains_list", list(), list(), true],
  ["list_sets_contains_list", list(), list(1n), false],
  ["list_sets_contains_list", list(1n, 2n, 3n, 4n), list(2n, 3n), true],
  ["list_sets_contains_list", list(1n, 2.0, u(3n)), list(1.0, u(2n), 3n), true],
  ["list_sets_contains_list", list(1n, 2n), list(2n, 3n), false],
  ["list_sets_equivalent_list", list(), list(), true],
  ["list_sets_equivalent_list", list(1n), list(1n, 1n), true],
  ["list_sets_equivalent_list", list(1n), list(u(1n), 1.0), true],
  ["list_sets_equivalent_list", list(1n, 2n, 3n), list(u(3n), 2.0, 1n), true],
  ["list_sets_equivalent_list", list(1n, 2n), list(2n, 2n, 2n), false],
  ["list_sets_intersects_list", list(1n), list(), false],
  ["list_sets_intersects_list", list(), list(1n), false],
  ["list_sets_intersects_list", list(1n), list(1n, 2n), true],
  ["list_sets_intersects_list", list(list(1n), list(2n, 3n)), list(list(1n, 2n), list(2n, 3.0)), true],
];

describe("sets", () => {
  for (const [id, a, b, expected] of cases) {
    it(`${id} ${a.size}×${b.size} → ${expected}`, () => {
      expect(call(setsLibrary, id, a, b)).toBe(expected);
    });
  }
});

describe("sets costs", () => {
  it("estimates 1 + size(a) × size(b) comparisons, twice for equivalence", () => {
    const sizes = [
      { min: 0, max: 3 },
      { min: 1, max: 4 },
    ];
    expect(overload(setsLibrary, "list_sets_contains_list").cost?.estimate?.(sizes)).toEqual({ min: 1, max: 13 });
    expect(overload(setsLibrary, "list_sets_equivalent_list").cost?.estimate?.(sizes)).toEqual({ min: 1, max: 25 });
  });
  it("charges the same at run time", () => {
    const args = [list(1n, 2n, 3n), list(1n, 2n, 3n, 4n)];
    expect(overload(setsLibrary, "list_sets_intersects_list").cost?.actual?.(args, true)).toBe(13);
    expect(overload(setsLibrary, "list_sets_equivalent_list").cost?.actual?.(args, false)).toBe(25);
  });
});

describe("sets end to end", () => {
  const evaluate = evaluator(setsLibrary);
  const holds = [
    "sets.contains([1, 2, 3, 4], [2, 3]) && !sets.contains([], [1])",
    "sets.equivalent([1, 2, 3], [3u, 2.0, 1]) && sets.equivalent([1], [1, 1])",
    "sets.intersects([[1], [2, 3]], [[1, 2], [2, 3.0]]) && !sets.intersects([1], [])",
  ];
  itHolds(evaluate, holds);
});
