// The evaluator of each resource, as kube's quota configuration gives them: pods, services, claims and
// ResourceClaims have their own; configmaps, secrets, replicationcontrollers and resourcequotas count objects
// under a legacy name too; every other resource counts objects only. Virtual resources and events are
// never charged.
import { objectCountEvaluator, type QuotaEvaluator } from "./evaluator.js";
import { podEvaluator } from "./pod-evaluator.js";
import { pvcEvaluator } from "./pvc-evaluator.js";
import { resourceClaimEvaluator } from "./resource-claim-evaluator.js";
import { serviceEvaluator } from "./service-evaluator.js";

const special: readonly QuotaEvaluator[] = [
  podEvaluator,
  serviceEvaluator,
  pvcEvaluator,
  resourceClaimEvaluator,
  objectCountEvaluator("", "configmaps", "configmaps"),
  objectCountEvaluator("", "resourcequotas", "resourcequotas"),
  objectCountEvaluator("", "replicationcontrollers", "replicationcontrollers"),
  objectCountEvaluator("", "secrets", "secrets"),
];

/** kube's DefaultIgnoredResources. */
const ignoredResources: ReadonlySet<string> = new Set([
  "/bindings",
  "/componentstatuses",
  "authentication.k8s.io/tokenreviews",
  "authentication.k8s.io/selfsubjectreviews",
  "authorization.k8s.io/subjectaccessreviews",
  "authorization.k8s.io/selfsubjectaccessreviews",
  "authorization.k8s.io/localsubjectaccessreviews",
  "authorization.k8s.io/selfsubjectrulesreviews",
  "/events",
  "events.k8s.io/events",
]);

const counters = new Map<string, QuotaEvaluator>();

/** The evaluator of a group's resource; undefined for the resources quota ignores. */
export function quotaEvaluator(group: string, resource: string): QuotaEvaluator | undefined {
  const key = `${group}/${resource}`;
  if (ignoredResources.has(key)) return undefined;
  const own = special.find((e) => e.group === group && e.resource === resource);
  if (own !== undefined) return own;
  let counter = counters.get(key);
  if (counter === undefined) {
    counter = objectCountEvaluator(group, resource);
    counters.set(key, counter);
  }
  return counter;
}
