// Cost of the standard functions, with cel-go's formulas (checker/cost.go for the static estimate,
// interpreter/runtimecost.go for the run-time cost): traversing strings and bytes costs 0.1 a unit of
// size, a regex match (1 + length(input)) × 0.1 times length(regex) × 0.25, `in` on a list its size;
// everything else costs 1. Sizes are CEL sizes: code points, bytes, list items, map entries, else 1.
import type { CostEstimate, OverloadCost, SizeEstimate } from "../../common/decls.js";
import { CelList, CelMap, type CelValue } from "../../common/values.js";
import { codePointLength } from "./text.js";

export const STRING_TRAVERSAL_COST_FACTOR = 0.1;
export const REGEX_STRING_LENGTH_COST_FACTOR = 0.25;
/** cel-go's math.MaxUint64 saturation bound, as a double. */
export const MAX_ESTIMATE = 2 ** 64;

const UNKNOWN_SIZE: SizeEstimate = { min: 0, max: MAX_ESTIMATE };

/** cel-go's actualSize: the size of strings, bytes, lists and maps; 1 for anything else. */
export function actualSize(value: CelValue): number {
  if (typeof value === "string") return codePointLength(value);
  if (value instanceof Uint8Array) return value.length;
  if (value instanceof CelList || value instanceof CelMap) return value.size;
  return 1;
}

function sizeOrUnknown(size: SizeEstimate | undefined): SizeEstimate {
  return size ?? UNKNOWN_SIZE;
}

/** multiplyByCostFactor: rounds up, saturates. */
function byFactor(n: number, factor: number): number {
  return Math.min(Math.ceil(n * factor), MAX_ESTIMATE);
}

function rangeByFactor(size: SizeEstimate, factor: number): CostEstimate {
  return { min: byFactor(size.min, factor), max: byFactor(size.max, factor) };
}

function addSizes(a: SizeEstimate, b: SizeEstimate): SizeEstimate {
  return { min: Math.min(a.min + b.min, MAX_ESTIMATE), max: Math.min(a.max + b.max, MAX_ESTIMATE) };
}

function multiplyCosts(a: CostEstimate, b: CostEstimate): CostEstimate {
  return { min: Math.min(a.min * b.min, MAX_ESTIMATE), max: Math.min(a.max * b.max, MAX_ESTIMATE) };
}

/**
 * startsWith / endsWith. As in cel-go, the estimate scales with the argument and the run-time cost
 * with the receiver.
 */
export const affixCost: OverloadCost = {
  estimate: (args) => rangeByFactor(sizeOrUnknown(args[1]), STRING_TRAVERSAL_COST_FACTOR),
  actual: (args) => byFactor(actualSize(args[0] as CelValue), STRING_TRAVERSAL_COST_FACTOR),
};

/** string(bytes) and bytes(string): a traversal; a character takes one to four bytes. */
export function transcodeCost(resultSize: (input: SizeEstimate) => SizeEstimate): OverloadCost {
  return {
    estimate: (args) => rangeByFactor(sizeOrUnknown(args[0]), STRING_TRAVERSAL_COST_FACTOR),
    resultSize: (args) => resultSize(sizeOrUnknown(args[0])),
    actual: (args) => byFactor(actualSize(args[0] as CelValue), STRING_TRAVERSAL_COST_FACTOR),
  };
}

/** `x in list`: the list's size. */
export const inListCost: OverloadCost = {
  estimate: (args) => rangeByFactor(sizeOrUnknown(args[1]), 1),
  actual: (args) => actualSize(args[1] as CelValue),
};

/** Equality and string/bytes ordering: the smaller operand is traversed. */
export const comparisonCost: OverloadCost = {
  estimate: (args) => {
    const smallestMax = Math.min(sizeOrUnknown(args[0]).max, sizeOrUnknown(args[1]).max);
    return rangeByFactor({ min: smallestMax > 0 ? 1 : 0, max: smallestMax }, STRING_TRAVERSAL_COST_FACTOR);
  },
  actual: (args) =>
    byFactor(Math.min(actualSize(args[0] as CelValue), actualSize(args[1] as CelValue)), STRING_TRAVERSAL_COST_FACTOR),
};

/** String and bytes concatenation copies both operands. */
export const concatCost: OverloadCost = {
  estimate: (args) =>
    rangeByFactor(addSizes(sizeOrUnknown(args[0]), sizeOrUnknown(args[1])), STRING_TRAVERSAL_COST_FACTOR),
  resultSize: (args) => addSizes(sizeOrUnknown(args[0]), sizeOrUnknown(args[1])),
  actual: (args) =>
    byFactor(actualSize(args[0] as CelValue) + actualSize(args[1] as CelValue), STRING_TRAVERSAL_COST_FACTOR),
};

/** List concatenation costs 1 but its result is as large as both operands. */
export const listConcatCost: OverloadCost = {
  resultSize: (args) => addSizes(sizeOrUnknown(args[0]), sizeOrUnknown(args[1])),
};

/** `c ? a : b` has the size of either branch. */
export const conditionalCost: OverloadCost = {
  resultSize: (args) => {
    const a = sizeOrUnknown(args[1]);
    const b = sizeOrUnknown(args[2]);
    return { min: Math.min(a.min, b.min), max: Math.max(a.max, b.max) };
  },
};

/** `s.contains(t)`: each character of s against t. */
export const containsCost: OverloadCost = {
  estimate: (args) =>
    multiplyCosts(
      rangeByFactor(sizeOrUnknown(args[0]), STRING_TRAVERSAL_COST_FACTOR),
      rangeByFactor(sizeOrUnknown(args[1]), STRING_TRAVERSAL_COST_FACTOR),
    ),
  actual: (args) =>
    byFactor(actualSize(args[0] as CelValue), STRING_TRAVERSAL_COST_FACTOR) *
    byFactor(actualSize(args[1] as CelValue), STRING_TRAVERSAL_COST_FACTOR),
};

/**
 * `s.matches(re)`: RE2 runs in time length(input) × states; the pattern length (a state per about
 * four characters) stands in for the states. One is added to the input so an empty input still costs.
 */
export const matchesCost: OverloadCost = {
  estimate: (args) =>
    multiplyCosts(
      rangeByFactor(addSizes(sizeOrUnknown(args[0]), { min: 1, max: 1 }), STRING_TRAVERSAL_COST_FACTOR),
      rangeByFactor(sizeOrUnknown(args[1]), REGEX_STRING_LENGTH_COST_FACTOR),
    ),
  actual: (args) =>
    byFactor(1 + actualSize(args[0] as CelValue), STRING_TRAVERSAL_COST_FACTOR) *
    byFactor(actualSize(args[1] as CelValue), REGEX_STRING_LENGTH_COST_FACTOR),
};
