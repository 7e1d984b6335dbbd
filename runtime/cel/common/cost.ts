// cel-go's cost arithmetic, shared by the estimator and every library's cost hooks: sizes and costs are
// uint64 in cel-go, so they saturate at MaxUint64 (2^64 as a double); a cost factor multiplies and rounds up.
import type { CostEstimate, SizeEstimate } from "./decls.js";

/** math.MaxUint64 as cel-go saturates to it. */
export const MAX_COST = 2 ** 64;

/** The size of an argument the estimator knows nothing about. */
const UNBOUNDED: SizeEstimate = { min: 0, max: MAX_COST };

/** The size estimate of an argument, unbounded when unknown. */
export function sizeOf(estimate: SizeEstimate | undefined): SizeEstimate {
  return estimate ?? UNBOUNDED;
}

/** cel-go's multiplyByCostFactor on one number: ceil(x × factor), saturating. */
export function scaleCost(x: number, factor: number): number {
  return Math.min(Math.ceil(x * factor), MAX_COST);
}

/** cel-go's SizeEstimate/CostEstimate.MultiplyByCostFactor. */
export function multiplyByCostFactor(estimate: SizeEstimate | CostEstimate, factor: number): CostEstimate {
  return { min: scaleCost(estimate.min, factor), max: scaleCost(estimate.max, factor) };
}

/** cel-go's Add on sizes and costs, saturating. */
export function addCosts(a: SizeEstimate | CostEstimate, b: SizeEstimate | CostEstimate): CostEstimate {
  return { min: Math.min(a.min + b.min, MAX_COST), max: Math.min(a.max + b.max, MAX_COST) };
}

/** cel-go's Multiply on sizes and costs, saturating. */
export function multiplyEstimates(a: SizeEstimate | CostEstimate, b: SizeEstimate | CostEstimate): CostEstimate {
  return { min: Math.min(a.min * b.min, MAX_COST), max: Math.min(a.max * b.max, MAX_COST) };
}
