// kube's pod quota evaluator: `count/pods` for every pod; `pods`, cpu, memory, ephemeral storage (requests and
// limits), hugepages and extended resources for pods that still run (not Succeeded or Failed, not past
// their deletion grace period); the Terminating, NotTerminating, BestEffort, NotBestEffort, PriorityClass
// and CrossNamespacePodAffinity scopes.
import { podQOSClass } from "../strategies/pod-qos.js";
import { countQuantity } from "../validation/quantity-arithmetic.js";
import {
  computeResourceNames,
  isExtendedResourceName,
  isHugePageResourceName,
  isNativeResourceName,
  isQuotaHugePageResourceName,
} from "../validation/resource-names.js";
import { asObject, type JsonObject, listItems } from "../validation/walk.js";
import {
  objectCountName,
  type QuotaEvaluator,
  type QuotaRequest,
  requirementMatchesLabels,
  type ScopeRequirement,
} from "./evaluator.js";
import { containerResources, podResourceTotals } from "./pod-resource-totals.js";
import { addLists, type ResourceList } from "./resource-list.js";

const podCountName = objectCountName("", "pods");

const podResources = [podCountName, ...computeResourceNames, "pods"];

/** The resources a quota on compute makes every container state (kube's validationSet). */
const constrainedResources = ["cpu", "memory", "requests.cpu", "requests.memory", "limits.cpu", "limits.memory"];

const deviceClassPrefix = "deviceclass.resource.kubernetes.io/";

function isExtendedResourceNameForQuota(name: string): boolean {
  const nonNative = !isNativeResourceName(name);
  return (nonNative || name.startsWith(`requests.${deviceClassPrefix}`)) && name.startsWith("requests.");
}

function specOf(pod: JsonObject): JsonObject {
  return asObject(pod.spec) ?? {};
}

/** kube's IsTerminating: an activeDeadlineSeconds of zero or more. */
export function podIsTerminating(pod: JsonObject): boolean {
  const deadline = specOf(pod).activeDeadlineSeconds;
  return typeof deadline === "number" && deadline >= 0;
}

function isBestEffort(pod: JsonObject): boolean {
  const qos = asObject(pod.status)?.qosClass;
  return (typeof qos === "string" && qos !== "" ? qos : podQOSClass(specOf(pod))) === "BestEffort";
}

function crossNamespaceTerm(term: unknown): boolean {
  const t = asObject(term) ?? {};
  return (Array.isArray(t.namespaces) && t.namespaces.length > 0) || (t.namespaceSelector ?? null) !== null;
}

function usesCrossNamespaceAffinity(pod: JsonObject): boolean {
  const affinity = asObject(specOf(pod).affinity) ?? {};
  for (const kind of [affinity.podAffinity, affinity.podAntiAffinity]) {
    const terms = asObject(kind) ?? {};
    if (listItems(terms.requiredDuringSchedulingIgnoredDuringExecution).some(crossNamespaceTerm)) return true;
    const preferred = listItems(terms.preferredDuringSchedulingIgnoredDuringExecution);
    if (preferred.some((w) => crossNamespaceTerm(asObject(w)?.podAffinityTerm))) return true;
  }
  return false;
}

function podMatchesScope(requirement: ScopeRequirement, pod: JsonObject): boolean {
  switch (requirement.scopeName) {
    case "Terminating":
      return podIsTerminating(pod);
    case "NotTerminating":
      return !podIsTerminating(pod);
    case "BestEffort":
      return isBestEffort(pod);
    case "NotBestEffort":
      return !isBestEffort(pod);
    case "PriorityClass": {
      const priorityClass = specOf(pod).priorityClassName;
      const name = typeof priorityClass === "string" ? priorityClass : "";
      if (requirement.operator === "Exists") return name !== "";
      return requirementMatchesLabels(requirement, name === "" ? {} : { PriorityClass: name });
    }
    case "CrossNamespacePodAffinity":
      return usesCrossNamespaceAffinity(pod);
    default:
      return false;
  }
}

/** kube's QuotaV1Pod: whether the pod still consumes compute resources. */
function stillConsumes(pod: JsonObject, now: Date): boolean {
  const phase = asObject(pod.status)?.phase;
  if (phase === "Failed" || phase === "Succeeded") return false;
  const meta = asObject(pod.metadata) ?? {};
  const deletion = meta.deletionTimestamp;
  const grace = meta.deletionGracePeriodSeconds;
  if (typeof deletion === "string" && typeof grace === "number") {
    if (now.getTime() > Date.parse(deletion) + grace * 1000) return false;
  }
  return true;
}

/** kube's podComputeUsageHelper. */
function computeUsage(requests: ResourceList, limits: ResourceList): ResourceList {
  const result: ResourceList = new Map([["pods", countQuantity(1)]]);
  for (const resource of ["cpu", "memory", "ephemeral-storage"]) {
    const request = requests.get(resource);
    if (request !== undefined) {
      result.set(resource, request);
      result.set(`requests.${resource}`, request);
    }
    const limit = limits.get(resource);
    if (limit !== undefined) result.set(`limits.${resource}`, limit);
  }
  for (const [resource, request] of requests) {
    if (isHugePageResourceName(resource)) {
      result.set(resource, request);
      result.set(`requests.${resource}`, request);
    }
    if (isExtendedResourceName(resource) || resource.startsWith(deviceClassPrefix)) {
      result.set(`requests.${resource}`, request);
    }
  }
  return result;
}

function hasPodLevelResources(pod: JsonObject): boolean {
  const resources = asObject(specOf(pod).resources) ?? {};
  return (
    Object.keys(asObject(resources.requests) ?? {}).length + Object.keys(asObject(resources.limits) ?? {}).length > 0
  );
}

function podConstraints(required: readonly string[], pod: JsonObject): string | undefined {
  if (hasPodLevelResources(pod)) return undefined;
  const needed = required.filter((name) => constrainedResources.includes(name));
  const missing = new Map<string, Set<string>>();
  const spec = specOf(pod);
  for (const c of [...listItems(spec.containers), ...listItems(spec.initContainers)]) {
    const states = computeUsage(containerResources(c, "requests"), containerResources(c, "limits"));
    for (const name of needed) {
      if (states.has(name)) continue;
      const containers = missing.get(name) ?? new Set<string>();
      containers.add(String(asObject(c)?.name ?? ""));
      missing.set(name, containers);
    }
  }
  if (missing.size === 0) return undefined;
  const parts = [...missing.keys()]
    .sort()
    .map((name) => `${name} for: ${[...(missing.get(name) as Set<string>)].sort().join(",")}`);
  return `must specify ${parts.join("; ")}`;
}

export function podUsage(pod: JsonObject, now: Date): ResourceList {
  const counted: ResourceList = new Map([[podCountName, countQuantity(1)]]);
  if (!stillConsumes(pod, now)) return counted;
  return addLists(
    counted,
    computeUsage(podResourceTotals(specOf(pod), "requests"), podResourceTotals(specOf(pod), "limits")),
  );
}

export const podEvaluator: QuotaEvaluator = {
  group: "",
  resource: "pods",
  scoped: true,
  handles(r: QuotaRequest): boolean {
    if (r.subresource === "resize") return r.operation === "UPDATE";
    if (r.subresource !== "") return false;
    if (r.operation === "UPDATE" && r.object !== undefined && r.oldObject !== undefined) {
      if (podIsTerminating(r.object) !== podIsTerminating(r.oldObject)) return true;
    }
    return r.operation === "CREATE";
  },
  matchingResources(input) {
    const result = input.filter((name) => podResources.includes(name));
    for (const name of input) {
      if (isQuotaHugePageResourceName(name)) result.push(name);
      if (isExtendedResourceNameForQuota(name)) result.push(name);
    }
    return result;
  },
  matchesScope: podMatchesScope,
  usage: podUsage,
  constraints: podConstraints,
};
