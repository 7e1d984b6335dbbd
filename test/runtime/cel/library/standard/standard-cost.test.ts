import { describe, expect, it } from "vitest";
import { MAX_COST } from "../../../../../runtime/cel/common/cost.js";
import type { CostEstimate, SizeEstimate } from "../../../../../runtime/cel/common/decls.js";
import { ArrayList, type CelValue } from "../../../../../runtime/cel/common/values.js";
import { overload } from "./overloads.js";

function actual(id: string, ...args: CelValue[]): number | undefined {
  return overload(id).cost?.actual?.(args, null);
}

function estimate(id: string, ...args: (SizeEstimate | undefined)[]): CostEstimate | undefined {
  return overload(id).cost?.estimate?.(args);
}

const fixed = (n: number): SizeEstimate => ({ min: n, max: n });
const upTo = (n: number): SizeEstimate => ({ min: 0, max: n });

describe("run-time cost (cel-go's CostTracker)", () => {
  it.each<[string, CelValue[], number]>([
    ["matches_string", ["a".repeat(100), "^[a-z]+$"], 11 * 2],
    ["matches_string", ["", "abcd"], 1],
    ["contains_string", ["a".repeat(25), "abc"], 3],
    ["starts_with_string", ["a".repeat(25), "a"], 3],
    ["ends_with_string", ["🐱".repeat(10), "🐱"], 1],
    ["equals", ["a".repeat(30), "b".repeat(50)], 3],
    ["equals", [1n, 2n], 1],
    ["less_string", ["abc", "abcd"], 1],
    ["add_string", ["a".repeat(15), "b".repeat(10)], 3],
    ["add_bytes", [new Uint8Array(11), new Uint8Array(0)], 2],
    ["string_to_bytes", ["a".repeat(31)], 4],
    ["bytes_to_string", [new Uint8Array(9)], 1],
    ["in_list", [1n, new ArrayList([1n, 2n, 3n])], 3],
  ])("%s", (id, args, cost) => {
    expect(actual(id, ...args)).toBe(cost);
  });

  it("leaves other functions at the default cost", () => {
    expect(overload("add_int64").cost).toBeUndefined();
    expect(overload("matches").cost).toBeUndefined();
    expect(overload("in_map").cost).toBeUndefined();
  });
});

describe("static estimates (cel-go's coster)", () => {
  it("prices matches by input and pattern length", () => {
    expect(estimate("matches_string", upTo(63), fixed(8))).toEqual({ min: 1 * 2, max: 7 * 2 });
  });

  it("prices comparisons by the smaller operand", () => {
    expect(estimate("equals", fixed(1), fixed(1))).toEqual({ min: 1, max: 1 });
    expect(estimate("equals", upTo(100), upTo(30))).toEqual({ min: 1, max: 3 });
    expect(estimate("less_string", fixed(0), upTo(30))).toEqual({ min: 0, max: 0 });
  });

  it("saturates on unknown sizes", () => {
    expect(estimate("contains_string", undefined, fixed(10))?.max).toBe(Math.ceil(MAX_COST * 0.1));
    expect(estimate("in_list", undefined, undefined)).toEqual({ min: 0, max: MAX_COST });
  });

  it("scales startsWith by its argument", () => {
    expect(estimate("starts_with_string", upTo(1000), fixed(20))).toEqual({ min: 2, max: 2 });
  });

  it("sizes concatenations and conversions", () => {
    expect(overload("add_string").cost?.resultSize?.([fixed(3), upTo(10)])).toEqual({ min: 3, max: 13 });
    expect(estimate("add_string", fixed(3), upTo(10))).toEqual({ min: 1, max: 2 });
    expect(overload("add_list").cost?.resultSize?.([fixed(3), upTo(10)])).toEqual({ min: 3, max: 13 });
    expect(overload("string_to_bytes").cost?.resultSize?.([{ min: 2, max: 10 }])).toEqual({ min: 2, max: 40 });
    expect(overload("bytes_to_string").cost?.resultSize?.([{ min: 10, max: 40 }])).toEqual({ min: 2, max: 40 });
    expect(overload("conditional").cost?.resultSize?.([fixed(1), fixed(3), upTo(10)])).toEqual({ min: 0, max: 10 });
  });
});
