// The worst-case cost of a rule, estimated from the size bounds of the schema it reads: cel-go's
// EstimateCost with Kubernetes' estimator (k8s.io/apiserver/pkg/cel/library/cost.go): the path of a value
// from `self` or `oldSelf` names its bounds, a presence test costs nothing, and comparing two values of
// a Kubernetes library type has the fixed prices Kubernetes gives it.
import { type CallEstimate, type CostNode, estimateCost } from "../checker/cost-estimator.js";
import type { CheckedAst } from "../common/ast.js";
import { sameType } from "../common/cel-types.js";
import type { CelEnv } from "../env.js";
import { multiplyByCostFactor, STRING_TRAVERSAL_COST_FACTOR } from "../library/kubernetes-cost.js";
import { type DeclType, sizeAtPath } from "./schema-types.js";

/** Longest name of a named format, bounding the cost of comparing two (apiserver/pkg/cel MaxFormatSize). */
const maxFormatSize = 64;

/** Library types whose equality is a constant-time check. */
const unitEqualityTypes = new Set([
  "net.IP",
  "net.CIDR",
  "kubernetes.Quantity",
  "kubernetes.Semver",
  "kubernetes.authorization.Authorizer",
  "kubernetes.authorization.PathCheck",
  "kubernetes.authorization.GroupCheck",
  "kubernetes.authorization.ResourceCheck",
  "kubernetes.authorization.Decision",
]);

/** Kubernetes' price of `a == b` when both are of one of its library types; undefined leaves it to cel-go. */
export function kubernetesEqualityCost(
  fn: string,
  _overloadId: string,
  args: readonly CostNode[],
): CallEstimate | undefined {
  const [lhs, rhs] = args;
  if (fn !== "_==_" || lhs === undefined || rhs === undefined || args.length !== 2) return undefined;
  const type = lhs.type;
  if (type.kind !== "opaque" || !sameType(type, rhs.type)) return undefined;
  if (unitEqualityTypes.has(type.name)) return { cost: { min: 1, max: 1 } };
  if (type.name === "kubernetes.NamedFormat") {
    return { cost: multiplyByCostFactor({ min: 1, max: maxFormatSize }, STRING_TRAVERSAL_COST_FACTOR) };
  }
  if (type.name === "kubernetes.URL") {
    // Kubernetes sizes both sides by the right-hand one.
    const max = rhs.size?.max ?? 1;
    return { cost: multiplyByCostFactor({ min: 1, max }, STRING_TRAVERSAL_COST_FACTOR) };
  }
  return undefined;
}

/** The highest cost one evaluation of `ast` can have, with `self` (and `oldSelf`) of the given type. */
export function estimateMaxCost(env: CelEnv, ast: CheckedAst, type: DeclType): number {
  const sizes = {
    estimateSize: (path: readonly string[]) => sizeAtPath(type, path),
    estimateCallCost: kubernetesEqualityCost,
  };
  return estimateCost(ast, env, sizes, { presenceTestHasCost: false }).max;
}
