// Cost pieces the list, regex, sets, format and string functions need beyond cost.ts: products of
// estimates, Kubernetes' traversal cost of a whole value, and what an estimate may know about a call
// besides its argument sizes.
import type { ConstantValue } from "../common/ast.js";
import type { CelType } from "../common/cel-types.js";
import type { CostEstimate, SizeEstimate } from "../common/decls.js";
import { CelList, CelMap, CelObject, type CelValue } from "../common/values.js";
import { STRING_TRAVERSAL_COST_FACTOR } from "./kubernetes-cost.js";

export { multiplyEstimates } from "../common/cost.js";

/**
 * What a cost estimate may know about a call besides the argument sizes (receiver first): the checked
 * argument types, the size of one element of a list argument (a schema's `maxLength` of its items) and
 * the value of an argument written as a literal.
 */
export interface CallEstimateContext {
  readonly argTypes: readonly CelType[];
  elementSize(argIndex: number): SizeEstimate | undefined;
  literal(argIndex: number): ConstantValue | undefined;
}

/** Kubernetes' traversalCost: strings and bytes by UTF-8 length (rounded down), lists, maps and objects by their contents, scalars 1. */
export function dataTraversalCost(v: CelValue): number {
  if (typeof v === "string") return Math.trunc(Buffer.byteLength(v, "utf8") * STRING_TRAVERSAL_COST_FACTOR);
  if (v instanceof Uint8Array) return Math.trunc(v.length * STRING_TRAVERSAL_COST_FACTOR);
  let cost = 0;
  if (v instanceof CelList) {
    for (let i = 0; i < v.size; i++) cost += dataTraversalCost(v.get(i));
    return cost;
  }
  if (v instanceof CelMap) {
    for (const [k, value] of v.entries()) cost += dataTraversalCost(k) + dataTraversalCost(value);
    return cost;
  }
  if (v instanceof CelObject) {
    for (const name of v.fieldNames()) cost += dataTraversalCost(name) + dataTraversalCost(v.get(name) ?? null);
    return cost;
  }
  return 1;
}

/** The cost hooks as these libraries write them: the estimator passes a CallEstimateContext last. */
export interface ContextualCost {
  estimate?(
    args: readonly (SizeEstimate | undefined)[],
    result?: SizeEstimate,
    context?: CallEstimateContext,
  ): CostEstimate | undefined;
  resultSize?(args: readonly (SizeEstimate | undefined)[], context?: CallEstimateContext): SizeEstimate | undefined;
}
