// kube's rules on resource names (pkg/apis/core/helper): which names are standard, standard for quota,
// native, extended or hugepages. LimitRange and ResourceQuota validation and the pod quota evaluator share them.
import { qualifiedNameErrors } from "../selection/label-validation.js";

/** cpu, memory and ephemeral-storage, bare and as requests and limits: the compute resources quota counts. */
export const computeResourceNames = [
  "cpu",
  "memory",
  "ephemeral-storage",
  "requests.cpu",
  "requests.memory",
  "requests.ephemeral-storage",
  "limits.cpu",
  "limits.memory",
  "limits.ephemeral-storage",
];

/** helper.standardQuotaResources. */
const standardQuotaResources = new Set([
  ...computeResourceNames,
  "requests.storage",
  "pods",
  "resourcequotas",
  "services",
  "replicationcontrollers",
  "secrets",
  "persistentvolumeclaims",
  "configmaps",
  "services.nodeports",
  "services.loadbalancers",
]);

/** IsHugePageResourceName. */
export function isHugePageResourceName(name: string): boolean {
  return name.startsWith("hugepages-");
}

/** IsQuotaHugePageResourceName: a hugepages resource, bare or as a request. */
export function isQuotaHugePageResourceName(name: string): boolean {
  return isHugePageResourceName(name) || name.startsWith("requests.hugepages-");
}

/** IsStandardQuotaResourceName. */
export function isStandardQuotaResourceName(name: string): boolean {
  return standardQuotaResources.has(name) || isQuotaHugePageResourceName(name);
}

/** IsStandardResourceName: the quota resources and `storage`. */
export function isStandardResourceName(name: string): boolean {
  return name === "storage" || isStandardQuotaResourceName(name);
}

/** IsNativeResource: unprefixed, or in the kubernetes.io domain. */
export function isNativeResourceName(name: string): boolean {
  return !name.includes("/") || name.includes("kubernetes.io/");
}

/** IsExtendedResourceName: not native, not a request, and a qualified name once prefixed for quota. */
export function isExtendedResourceName(name: string): boolean {
  if (isNativeResourceName(name) || name.startsWith("requests.")) return false;
  return qualifiedNameErrors(`requests.${name}`).length === 0;
}
