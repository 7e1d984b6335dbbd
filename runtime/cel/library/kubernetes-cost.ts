// The cost arithmetic of Kubernetes' CEL cost estimator (k8s.io/apiserver/pkg/cel/library/cost.go) on top
// of cel-go's: sizes and costs are uint64 that saturate, a cost factor multiplies and rounds up, and a
// value's actual size is its length (code points for strings) or, for IP and CIDR values, their bytes.

import { multiplyByCostFactor, sizeOf } from "../common/cost.js";
import type { CostEstimate, OverloadCost, SizeEstimate } from "../common/decls.js";
import type { CelValue } from "../common/values.js";
import { STRING_TRAVERSAL_COST_FACTOR, actualSize as sizeOfStandardValue } from "./standard/standard-cost.js";

export { addCosts, MAX_COST, multiplyByCostFactor, sizeOf } from "../common/cost.js";
export { STRING_TRAVERSAL_COST_FACTOR };

/** A library value that reports a size to the cost tracker (cel-go's traits.Sizer). */
export interface SizedValue {
  costSize(): number;
}

function isSized(value: object): value is SizedValue {
  return typeof (value as Partial<SizedValue>).costSize === "function";
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
