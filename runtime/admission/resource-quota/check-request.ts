// kube's CheckRequest: whether one write fits every quota of its namespace that matches it, and the quotas'
// usage once it is admitted. A quota matches when it limits a resource the write's evaluator charges and its
// scopes all hold; the write is charged its usage (on an update, what it adds), and refused when a matching
// quota would go over its hard limits, when the object lacks what a quota needs stated, or when the
// configuration limits a resource or scope that no quota covers.
import { StatusError } from "../../errors/status-error.js";
import type { KubeObject } from "../../object/kube-object.js";
import {
  matchingScopes,
  type QuotaEvaluator,
  type QuotaRequest,
  quotaMatches,
  quotaScopeRequirements,
  type ScopeRequirement,
  uncoveredScopes,
} from "../../quota/evaluator.js";
import {
  addLists,
  exceeding,
  maskList,
  negativeNames,
  printList,
  type ResourceList,
  readResourceList,
  removeZeros,
  subtractNonNegative,
  writeResourceList,
} from "../../quota/resource-list.js";
import { compareQuantity, zeroQuantity } from "../../validation/quantity-arithmetic.js";
import type { JsonObject } from "../../validation/walk.js";
import type { LimitedResource } from "./quota-configuration.js";

export interface QuotaCheck extends QuotaRequest {
  group: string;
  resource: string;
  object: JsonObject;
  now: Date;
}

/** A refusal; the plugin turns it into kube's 403 on the request's object. */
export class QuotaRefusal extends Error {}

function hardOf(quota: KubeObject): ResourceList {
  return readResourceList((quota.status as { hard?: unknown } | undefined)?.hard);
}

function usedOf(quota: KubeObject): ResourceList {
  return readResourceList((quota.status as { used?: unknown } | undefined)?.used);
}

function nameOf(quota: KubeObject): string {
  return String((quota.metadata as { name?: string }).name ?? "");
}

function sortedNames(names: Iterable<string>): string {
  return [...new Set(names)].sort().join(",");
}

/** Go's %v of []ScopedResourceSelectorRequirement. */
function printScopes(scopes: readonly ScopeRequirement[]): string {
  return `[${scopes.map((s) => `{${s.scopeName} ${s.operator} [${(s.values ?? []).join(" ")}]}`).join(" ")}]`;
}

/** kube's limitedByDefault: the consumed resource names a limited resource's matchContains names. */
function limitedByDefault(usage: ResourceList, limited: readonly LimitedResource[]): string[] {
  const names: string[] = [];
  for (const entry of limited) {
    for (const [name, q] of usage) {
      if (compareQuantity(q, zeroQuantity) > 0 && entry.matchContains.some((part) => name.includes(part)))
        names.push(name);
    }
  }
  return names;
}

/** The quotas with their new usage (the same array when nothing changes); throws QuotaRefusal or an Error. */
export function checkRequest(
  quotas: readonly KubeObject[],
  check: QuotaCheck,
  evaluator: QuotaEvaluator,
  limited: readonly LimitedResource[],
): KubeObject[] {
  const input = check.object;
  const limitedScopes = limited.flatMap((entry) => matchingScopes(evaluator, input, entry.matchScopes));
  const forResource = limited.filter((entry) => entry.apiGroup === check.group && entry.resource === check.resource);
  const limitedNames =
    forResource.length > 0 ? new Set(limitedByDefault(evaluator.usage(input, check.now), forResource)) : new Set();

  const interesting: number[] = [];
  const restricted = new Set<string>();
  const restrictedScopes: ScopeRequirement[] = [];
  quotas.forEach((quota, i) => {
    restrictedScopes.push(...matchingScopes(evaluator, input, quotaScopeRequirements(quota)));
    if (!quotaMatches(evaluator, quota, input)) return;
    const resources = evaluator.matchingResources([...hardOf(quota).keys()]);
    const violation = evaluator.constraints(resources, input);
    if (violation !== undefined) throw new QuotaRefusal(`failed quota: ${nameOf(quota)}: ${violation}`);
    const used = usedOf(quota);
    if (resources.some((name) => !used.has(name))) {
      throw new QuotaRefusal(`status unknown for quota: ${nameOf(quota)}, resources: ${sortedNames(resources)}`);
    }
    interesting.push(i);
    for (const name of resources) restricted.add(name);
  });

  const inputUsage = evaluator.usage(input, check.now);
  const negative = negativeNames(inputUsage);
  if (negative.length > 0) throw new QuotaRefusal(`quota usage is negative for resource(s): ${negative.join(",")}`);

  const deltas = new Map<number, ResourceList>(interesting.map((i) => [i, inputUsage]));
  let deltaWithoutQuota = check.operation === "CREATE" && interesting.length === 0 ? inputUsage : new Map();
  if (check.operation === "UPDATE") {
    const previous = check.oldObject;
    if (previous === undefined) {
      throw new QuotaRefusal("unable to get previous usage since prior version of object was not found");
    }
    if (String((previous.metadata as { resourceVersion?: string } | undefined)?.resourceVersion ?? "") !== "") {
      const delta = subtractNonNegative(inputUsage, evaluator.usage(previous, check.now));
      if (interesting.length === 0) deltaWithoutQuota = delta;
      for (const i of interesting) {
        if (quotaMatches(evaluator, quotas[i] as KubeObject, previous)) deltas.set(i, delta);
      }
    } else if (interesting.length === 0) {
      deltaWithoutQuota = inputUsage;
    }
  }
  for (const [i, delta] of deltas) {
    const nonZero = removeZeros(delta);
    if (nonZero.size === 0) deltas.delete(i);
    else deltas.set(i, nonZero);
  }
  if (interesting.length > 0 ? deltas.size === 0 : removeZeros(deltaWithoutQuota).size === 0) return [...quotas];

  const uncovered = [...limitedNames].filter((name) => !restricted.has(name as string)) as string[];
  if (uncovered.length > 0) throw new QuotaRefusal(`insufficient quota to consume: ${uncovered.sort().join(",")}`);
  const scopesUncovered = uncoveredScopes(evaluator, limitedScopes, restrictedScopes);
  if (scopesUncovered.length > 0) {
    throw new StatusError(500, undefined, `insufficient quota to match these scopes: ${printScopes(scopesUncovered)}`);
  }
  if (interesting.length === 0) return [...quotas];

  const out = [...quotas];
  for (const i of interesting) {
    const delta = deltas.get(i);
    if (delta === undefined) continue;
    const quota = quotas[i] as KubeObject;
    const hard = hardOf(quota);
    const used = usedOf(quota);
    const requested = maskList(delta, hard.keys());
    const newUsage = addLists(used, requested);
    if (check.subresource !== "status") {
      const over = exceeding(maskList(newUsage, requested.keys()), hard);
      if (over.length > 0) {
        throw new QuotaRefusal(
          `exceeded quota: ${nameOf(quota)}, requested: ${printList(maskList(requested, over))}, used: ${printList(maskList(used, over))}, limited: ${printList(maskList(hard, over))}`,
        );
      }
    }
    out[i] = { ...quota, status: { ...(quota.status as object), used: writeResourceList(newUsage) } };
  }
  return out;
}
