// kube's PersistentVolumeClaim quota evaluator: `count/persistentvolumeclaims` and `persistentvolumeclaims`
// per claim, `requests.storage` (rounded up to a whole byte count, at least what was allocated), the same
// per storage class under `<class>.storageclass.storage.k8s.io/`, and the VolumeAttributesClass scope.

import {
  compareQuantity,
  countQuantity,
  type Quantity,
  readQuantity,
  roundUp,
} from "../validation/quantity-arithmetic.js";
import { asObject, type JsonObject } from "../validation/walk.js";
import {
  objectCountName,
  type QuotaEvaluator,
  type QuotaRequest,
  requirementMatchesLabels,
  type ScopeRequirement,
} from "./evaluator.js";
import type { ResourceList } from "./resource-list.js";

const pvcCountName = objectCountName("", "persistentvolumeclaims");
const pvcResources = ["persistentvolumeclaims", "requests.storage"];
const storageClassSuffix = ".storageclass.storage.k8s.io/";

/** The claim's class: spec.storageClassName, else the beta annotation kube still reads. */
function storageClassOf(pvc: JsonObject): string {
  const annotations = asObject(asObject(pvc.metadata)?.annotations) ?? {};
  const beta = annotations["volume.beta.kubernetes.io/storage-class"];
  if (typeof beta === "string") return beta;
  const name = asObject(pvc.spec)?.storageClassName;
  return typeof name === "string" ? name : "";
}

function storageUsage(pvc: JsonObject): Quantity | undefined {
  const requests = asObject(asObject(asObject(pvc.spec)?.resources)?.requests) ?? {};
  const requested = readQuantity(requests.storage);
  if (requested === undefined) return undefined;
  let result = roundUp(requested, 0);
  const allocated = asObject(asObject(pvc.status)?.allocatedResources) ?? {};
  const allocatedStorage = readQuantity(allocated.storage);
  if (allocatedStorage !== undefined && compareQuantity(allocatedStorage, result) > 0) {
    result = roundUp(allocatedStorage, 0);
  }
  return result;
}

function pvcUsage(pvc: JsonObject): ResourceList {
  const usage: ResourceList = new Map([
    ["persistentvolumeclaims", countQuantity(1)],
    [pvcCountName, countQuantity(1)],
  ]);
  const storageClass = storageClassOf(pvc);
  if (storageClass !== "") usage.set(`${storageClass}${storageClassSuffix}persistentvolumeclaims`, countQuantity(1));
  const storage = storageUsage(pvc);
  if (storage !== undefined) {
    usage.set("requests.storage", storage);
    if (storageClass !== "") usage.set(`${storageClass}${storageClassSuffix}requests.storage`, storage);
  }
  return usage;
}

function attributesClasses(pvc: JsonObject): Set<string> {
  const names = new Set<string>();
  const spec = asObject(pvc.spec) ?? {};
  const status = asObject(pvc.status) ?? {};
  for (const name of [
    spec.volumeAttributesClassName,
    status.currentVolumeAttributesClassName,
    asObject(status.modifyVolumeStatus)?.targetVolumeAttributesClassName,
  ]) {
    if (typeof name === "string" && name !== "") names.add(name);
  }
  return names;
}

function pvcMatchesScope(requirement: ScopeRequirement, pvc: JsonObject): boolean {
  if (requirement.scopeName !== "VolumeAttributesClass") return false;
  const classes = attributesClasses(pvc);
  if (requirement.operator === "Exists") return classes.size > 0;
  if (classes.size === 0) return requirementMatchesLabels(requirement, {});
  return [...classes].some((name) => requirementMatchesLabels(requirement, { VolumeAttributesClass: name }));
}

export const pvcEvaluator: QuotaEvaluator = {
  group: "",
  resource: "persistentvolumeclaims",
  scoped: true,
  handles(r: QuotaRequest): boolean {
    if (r.subresource === "") return r.operation === "CREATE" || r.operation === "UPDATE";
    // kube's RequiresQuotaReplenish compares the allocated storage by pointer, so every status write counts.
    return r.subresource === "status" && r.object !== undefined && r.oldObject !== undefined;
  },
  matchingResources: (input) =>
    input.filter(
      (name) =>
        name === pvcCountName ||
        pvcResources.includes(name) ||
        pvcResources.some((resource) => name.endsWith(`${storageClassSuffix}${resource}`)),
    ),
  matchesScope: pvcMatchesScope,
  usage: pvcUsage,
  constraints: () => undefined,
};
