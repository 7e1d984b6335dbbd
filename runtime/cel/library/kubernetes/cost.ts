// The cost arithmetic of Kubernetes' CEL cost estimator (k8s.io/apiserver/pkg/cel/library/cost.go) on top
// of cel-go's: sizes and costs are uint64 that saturate, a cost factor multiplies and rounds up, and a
// value's actual size is its length (code points for strings) or, for IP and CIDR values, their bytes.
import type { CostEstimate, OverloadCost, SizeEstimate } from "../../common/decls.js";
import type { CelValue } from "../../common/values.js";
import { MAX_ESTIMATE, STRING_TRAVERSAL_COST_FACTOR, actualSize as sizeOfStandardValue } from "../standard/cost.js";

export { STRING_TRAVERSAL_COST_FACTOR };

/** math.MaxUint64 as cel-go saturates to it (2^64 as a double). */
export const MAX_COST = MAX_ESTIMATE;

/** The size of an argument whose bounds are unknown: anything up to MaxUint64. */
const UNBOUNDED: SizeEstimate = { min: 0, max: MAX_COST };

/** A library value that reports a size to the cost tracker (cel-go's traits.Sizer). */
export interface SizedValue {
  costSize(): number;
}

function isSized(value: object): value is SizedValue {
  return typeof (value as Partial<SizedValue>).costSize === "function";
}

/** The size estimate of an argument, unbounded when the estimator knows nothing. */
export function sizeOf(estimate: SizeEstimate | undefined): SizeEstimate {
  return estimate ?? UNBOUNDED;
}

/** cel-go's multiplyByCostFactor: ceil(x × factor), saturating at MaxUint64. */
function scale(x: number, factor: number): number {
  return Math.min(Math.ceil(x * factor), MAX_COST);
}

/** cel-go's SizeEstimate/CostEstimate.MultiplyByCostFactor. */
export function multiplyByCostFactor(estimate: SizeEstimate | CostEstimate, factor: number): CostEstimate {
  return { min: scale(estimate.min, factor), max: scale(estimate.max, factor) };
}

/** cel-go's CostEstimate.Add, saturating. */
export function addCosts(a: CostEstimate, b: CostEstimate): CostEstimate {
  return { min: Math.min(a.min + b.min, MAX_COST), max: Math.min(a.max + b.max, MAX_COST) };
}

/** The cost of reading a string argument of the estimated size once. */
export function traversalEstimate(estimate: SizeEstimate | undefined): CostEstimate {
  return multiplyByCostFactor(sizeOf(estimate), STRING_TRAVERSAL_COST_FACTOR);
}

/** cost.go's actualSize: the value's size when it has one (IP and CIDR values in bytes), else 1. */
export function actualSize(value: CelValue): number {
  if (typeof value === "object" && value !== null && isSized(value)) return value.costSize();
  return sizeOfStandardValue(value);
}

/** The run-time cost of reading `value` (a string) `times` times: ceil(size × times × 0.1). */
export function traversalCost(value: CelValue, times = 1): number {
  return Math.ceil(actualSize(value) * times * STRING_TRAVERSAL_COST_FACTOR);
}

/** A global function that parses its string argument (`times` passes): a string traversal, estimated and actual. */
export function parsesStringArgument(times = 1): OverloadCost {
  return {
    estimate: (args) => multiplyByCostFactor(sizeOf(args[0]), times * STRING_TRAVERSAL_COST_FACTOR),
    actual: (args) => traversalCost(args[0] as CelValue, times),
  };
}
