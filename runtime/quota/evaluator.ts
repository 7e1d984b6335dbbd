// kube's quota.Evaluator: what one resource consumes (usage), which quota resource names it can charge,
// which scopes it matches, and which writes change its usage. Objects are JSON in their request version.

import { countQuantity } from "../validation/quantity-arithmetic.js";
import type { JsonObject } from "../validation/walk.js";
import type { ResourceList } from "./resource-list.js";

/** A quota scope as a selector requirement; `spec.scopes` entries become `Exists` requirements. */
export interface ScopeRequirement {
  scopeName: string;
  operator: string;
  values?: string[];
}

/** The parts of an admission request an evaluator decides on. */
export interface QuotaRequest {
  operation: string;
  /** "" for the resource itself. */
  subresource: string;
  object?: JsonObject;
  oldObject?: JsonObject;
}

export interface QuotaEvaluator {
  group: string;
  resource: string;
  /** Whether the request may change usage. */
  handles(request: QuotaRequest): boolean;
  /** The names among `names` this resource is charged under. */
  matchingResources(names: readonly string[]): string[];
  /** Whether the object is in the scope; resources without scopes are in none. */
  matchesScope(requirement: ScopeRequirement, obj: JsonObject): boolean;
  /** Whether the resource has scopes, so that a configured limited scope can go uncovered. */
  scoped: boolean;
  usage(obj: JsonObject, now: Date): ResourceList;
  /** The refusal text when the object does not say what a quota tracking `required` needs. */
  constraints(required: readonly string[], obj: JsonObject): string | undefined;
}

/** kube's ObjectCountQuotaResourceNameFor: `count/<resource>` for core, else `count/<resource>.<group>`. */
export function objectCountName(group: string, resource: string): string {
  return group === "" ? `count/${resource}` : `count/${resource}.${group}`;
}

/** The requirements of a quota's `spec.scopes` and `spec.scopeSelector`, in that order. */
export function quotaScopeRequirements(quota: JsonObject): ScopeRequirement[] {
  const spec = (quota.spec ?? {}) as { scopes?: unknown; scopeSelector?: { matchExpressions?: unknown } };
  const requirements: ScopeRequirement[] = [];
  if (Array.isArray(spec.scopes)) {
    for (const scope of spec.scopes) requirements.push({ scopeName: String(scope), operator: "Exists" });
  }
  const expressions = spec.scopeSelector?.matchExpressions;
  if (Array.isArray(expressions)) {
    for (const e of expressions as ScopeRequirement[]) requirements.push(e);
  }
  return requirements;
}

/** A scope requirement as a label selector requirement over `labels` (kube's ScopedResourceSelectorRequirementsAsSelector). */
export function requirementMatchesLabels(
  requirement: ScopeRequirement,
  labels: Readonly<Record<string, string>>,
): boolean {
  const value = labels[requirement.scopeName];
  const values = requirement.values ?? [];
  switch (requirement.operator) {
    case "In":
      return value !== undefined && values.includes(value);
    case "NotIn":
      return value === undefined || !values.includes(value);
    case "Exists":
      return value !== undefined;
    case "DoesNotExist":
      return value === undefined;
    default:
      return false;
  }
}

/** kube's generic.Matches: the quota limits a resource the evaluator charges, and every scope matches. */
export function quotaMatches(evaluator: QuotaEvaluator, quota: JsonObject, obj: JsonObject): boolean {
  const hard = Object.keys(((quota.status ?? {}) as { hard?: object }).hard ?? {});
  if (evaluator.matchingResources(hard).length === 0) return false;
  return quotaScopeRequirements(quota).every((r) => evaluator.matchesScope(r, obj));
}

/** The requirements among `requirements` the object matches (kube's MatchingScopes). */
export function matchingScopes(
  evaluator: QuotaEvaluator,
  obj: JsonObject,
  requirements: readonly ScopeRequirement[],
): ScopeRequirement[] {
  return requirements.filter((r) => evaluator.matchesScope(r, obj));
}

/** The limited scopes no matched quota scope covers, by scope name (kube's UncoveredQuotaScopes). */
export function uncoveredScopes(
  evaluator: QuotaEvaluator,
  limited: readonly ScopeRequirement[],
  matched: readonly ScopeRequirement[],
): ScopeRequirement[] {
  if (!evaluator.scoped) return [];
  return limited.filter((l) => !matched.some((m) => m.scopeName === l.scopeName));
}

/**
 * kube's generic object count evaluator: one `count/<resource>.<group>` (plus a legacy alias such as
 * `configmaps`) per object, charged on create only.
 */
export function objectCountEvaluator(group: string, resource: string, alias?: string): QuotaEvaluator {
  const names = [objectCountName(group, resource), ...(alias === undefined ? [] : [alias])];
  return {
    group,
    resource,
    scoped: false,
    handles: (r) => r.subresource === "" && r.operation === "CREATE",
    matchingResources: (input) => input.filter((name) => names.includes(name)),
    matchesScope: () => false,
    usage: () => new Map(names.map((name) => [name, countQuantity(1)])),
    constraints: () => undefined,
  };
}
