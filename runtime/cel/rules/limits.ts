// Kubernetes' cost limits for x-kubernetes-validations (k8s.io/apiserver/pkg/apis/cel and the
// apiextensions validation): what one evaluation, one object and one schema may cost.

/** Runtime cost one evaluation of one expression may spend (about 0.1 s). */
export const perCallLimit = 1_000_000;

/** Runtime cost all rules together may spend validating one object (about 1 s). */
export const runtimeCostBudget = 10_000_000;

/** Estimated worst-case cost one expression may have, times how often it can run in one object. */
export const staticEstimatedCostLimit = 10_000_000;

/** Estimated worst-case cost of all the expressions of one schema. */
export const staticEstimatedSchemaCostLimit = 100_000_000;

/** Longest message a messageExpression may produce, in bytes. */
export const maxMessageExpressionBytes = 5 * 1024;

const uint64Max = 2 ** 64;

/** a × b, saturating at the largest uint64 as Kubernetes' multiplyWithOverflowGuard. */
export function multiplyCost(a: number, b: number): number {
  return a === 0 ? 0 : Math.min(a * b, uint64Max);
}

/** `<what> exceeds budget by factor of <factor> (try simplifying the rule, …)`. */
export function costErrorMessage(what: string, cost: number, limit: number): string {
  const factor = cost / limit;
  const shown = factor > 100 ? "more than 100x" : factor < 1.5 ? `${factor.toFixed(6)}x` : `${factor.toFixed(1)}x`;
  return `${what} exceeds budget by factor of ${shown} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}
