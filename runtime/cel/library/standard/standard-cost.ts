// Cost of the standard functions, with cel-go's formulas (checker/cost.go for the static estimate,
// interpreter/runtimecost.go for the run-time cost): traversing strings and bytes costs 0.1 a unit of
// size, a regex match (1 + length(input)) × 0.1 times length(regex) × 0.25, `in` on a list its size;
// everything else costs 1. Sizes are CEL sizes: code points, bytes, list items, map entries, else 1.
import { addCosts, multiplyByCostFactor, multiplyEstimates, scaleCost, sizeOf } from "../../common/cost.js";
import type { OverloadCost, SizeEstimate } from "../../common/decls.js";
import { CelList, CelMap, type CelValue } from "../../common/values.js";
import { codePointLength } from "./text.js";

export const STRING_TRAVERSAL_COST_FACTOR = 0.1;
export const REGEX_STRING_LENGTH_COST_FACTOR = 0.25;

/** cel-go's actualSize: the size of strings, bytes, lists and maps; 1 for anything else. */
export function actualSize(value: CelValue): number {
  if (typeof value === "string") return codePointLength(value);
  if (value instanceof Uint8Array) return value.length;
  if (value instanceof CelList || value instanceof CelMap) return value.size;
  return 1;
}

/**
 * startsWith / endsWith. As in cel-go, the estimate scales with the argument and the run-time cost
 * with the receiver.
 */
export const affixCost: OverloadCost = {
  estimate: (args) => multiplyByCostFactor(sizeOf(args[1]), STRING_TRAVERSAL_COST_FACTOR),
  actual: (args) => scaleCost(actualSize(args[0] as CelValue), STRING_TRAVERSAL_COST_FACTOR),
};

/** string(bytes) and bytes(string): a traversal; a character takes one to four bytes. */
export function transcodeCost(resultSize: (input: SizeEstimate) => SizeEstimate): OverloadCost {
  return {
    estimate: (args) => multiplyByCostFactor(sizeOf(args[0]), STRING_TRAVERSAL_COST_FACTOR),
    resultSize: (args) => resultSize(sizeOf(args[0])),
    actual: (args) => scaleCost(actualSize(args[0] as CelValue), STRING_TRAVERSAL_COST_FACTOR),
  };
}

/** `x in list`: the list's size. */
export const inListCost: OverloadCost = {
  estimate: (args) => multiplyByCostFactor(sizeOf(args[1]), 1),
  actual: (args) => actualSize(args[1] as CelValue),
};

/** Equality and string/bytes ordering: the smaller operand is traversed. */
export const comparisonCost: OverloadCost = {
  estimate: (args) => {
    const smallestMax = Math.min(sizeOf(args[0]).max, sizeOf(args[1]).max);
    return multiplyByCostFactor({ min: smallestMax > 0 ? 1 : 0, max: smallestMax }, STRING_TRAVERSAL_COST_FACTOR);
  },
  actual: (args) =>
    scaleCost(Math.min(actualSize(args[0] as CelValue), actualSize(args[1] as CelValue)), STRING_TRAVERSAL_COST_FACTOR),
};

/** String and bytes concatenation copies both operands. */
export const concatCost: OverloadCost = {
  estimate: (args) => multiplyByCostFactor(addCosts(sizeOf(args[0]), sizeOf(args[1])), STRING_TRAVERSAL_COST_FACTOR),
  resultSize: (args) => addCosts(sizeOf(args[0]), sizeOf(args[1])),
  actual: (args) =>
    scaleCost(actualSize(args[0] as CelValue) + actualSize(args[1] as CelValue), STRING_TRAVERSAL_COST_FACTOR),
};

/** List concatenation costs 1 but its result is as large as both operands. */
export const listConcatCost: OverloadCost = {
  resultSize: (args) => addCosts(sizeOf(args[0]), sizeOf(args[1])),
};

/** `c ? a : b` has the size of either branch. */
export const conditionalCost: OverloadCost = {
  resultSize: (args) => {
    const a = sizeOf(args[1]);
    const b = sizeOf(args[2]);
    return { min: Math.min(a.min, b.min), max: Math.max(a.max, b.max) };
  },
};

/** `s.contains(t)`: each character of s against t. */
export const containsCost: OverloadCost = {
  estimate: (args) =>
    multiplyEstimates(
      multiplyByCostFactor(sizeOf(args[0]), STRING_TRAVERSAL_COST_FACTOR),
      multiplyByCostFactor(sizeOf(args[1]), STRING_TRAVERSAL_COST_FACTOR),
    ),
  actual: (args) =>
    scaleCost(actualSize(args[0] as CelValue), STRING_TRAVERSAL_COST_FACTOR) *
    scaleCost(actualSize(args[1] as CelValue), STRING_TRAVERSAL_COST_FACTOR),
};

/**
 * `s.matches(re)`: RE2 runs in time length(input) × states; the pattern length (a state per about
 * four characters) stands in for the states. One is added to the input so an empty input still costs.
 */
export const matchesCost: OverloadCost = {
  estimate: (args) =>
    multiplyEstimates(
      multiplyByCostFactor(addCosts(sizeOf(args[0]), { min: 1, max: 1 }), STRING_TRAVERSAL_COST_FACTOR),
      multiplyByCostFactor(sizeOf(args[1]), REGEX_STRING_LENGTH_COST_FACTOR),
    ),
  actual: (args) =>
    scaleCost(1 + actualSize(args[0] as CelValue), STRING_TRAVERSAL_COST_FACTOR) *
    scaleCost(actualSize(args[1] as CelValue), REGEX_STRING_LENGTH_COST_FACTOR),
};
