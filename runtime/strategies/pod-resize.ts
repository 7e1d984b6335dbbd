// pods/resize as kube's podResizeStrategy treats it: only the containers' resources and resizePolicy
// change (dropNonResizeUpdates; metadata reset as for a status write), and the resize may not change the
// pod's QoS class, reorder or rename containers, nor touch a pod whose running containers report no
// resources (a node without resize support).
import { type FieldError, forbidden, invalid } from "../errors/field-error.js";
import type { KubeObject } from "../object/kube-object.js";
import { asObject, type JsonObject, listItems } from "../validation/walk.js";
import { podQOSClass } from "./pod-qos.js";
import { type PodCapabilities, validatePodSpec } from "./pod-spec-validation.js";

const statusOwnedMeta = ["labels", "annotations", "finalizers", "ownerReferences", "deletionTimestamp", "generation"];

function specOf(obj: KubeObject): JsonObject {
  return asObject(obj.spec) ?? {};
}

/** The old containers with the new resources and resizePolicy; undefined when containers moved. */
function resized(list: unknown, oldList: unknown): unknown[] | undefined {
  const items = listItems(list).map((c) => asObject(c) ?? {});
  const old = listItems(oldList).map((c) => asObject(c) ?? {});
  if (items.length !== old.length) return undefined;
  const merged: unknown[] = [];
  for (const [i, ctr] of items.entries()) {
    const before = structuredClone(old[i] ?? {});
    if (before.name !== ctr.name) return undefined;
    for (const field of ["resources", "resizePolicy"]) {
      if (ctr[field] === undefined) delete before[field];
      else before[field] = ctr[field];
    }
    merged.push(before);
  }
  return merged;
}

export function prepareResize(obj: KubeObject, old: KubeObject): void {
  const spec = specOf(obj);
  const oldSpec = specOf(old);
  const containers = resized(spec.containers, oldSpec.containers);
  const initContainers = resized(spec.initContainers, oldSpec.initContainers);
  // Added, removed or renamed containers stay for validation to refuse.
  if (containers === undefined || initContainers === undefined) return;
  const kept = structuredClone(oldSpec);
  kept.containers = containers;
  if (initContainers.length > 0) kept.initContainers = initContainers;
  // Pod-level resources resize too (InPlacePodLevelResourcesVerticalScaling, beta and on in v1.36).
  if (spec.resources === undefined) delete kept.resources;
  else kept.resources = spec.resources;
  obj.spec = kept;
  if (old.status === undefined) delete obj.status;
  else obj.status = structuredClone(old.status);
  const meta = asObject(obj.metadata) ?? {};
  const oldMeta = asObject(old.metadata) ?? {};
  for (const field of statusOwnedMeta) {
    if (oldMeta[field] === undefined) delete meta[field];
    else meta[field] = structuredClone(oldMeta[field]);
  }
  // kube's updatePodGeneration: a resize that changes the spec is a new generation.
  if (JSON.stringify(kept) !== JSON.stringify(oldSpec)) meta.generation = Number(oldMeta.generation ?? 0) + 1;
}

function runsWithoutResizeSupport(pod: KubeObject): boolean {
  for (const status of listItems(asObject(pod.status)?.containerStatuses).map((c) => asObject(c) ?? {})) {
    if (asObject(status.state)?.running !== undefined) return status.resources === undefined;
  }
  return false;
}

export function validateResize(obj: KubeObject, old: KubeObject, capabilities: PodCapabilities): FieldError[] {
  const spec = specOf(obj);
  const oldSpec = specOf(old);
  const errs = validatePodSpec(spec, "spec", true, capabilities);
  const qos = asObject(old.status)?.qosClass ?? podQOSClass(oldSpec);
  if (qos !== podQOSClass(spec)) {
    errs.push(
      invalid("spec", asObject(obj.status)?.qosClass ?? "", "Pod QOS Class may not change as a result of resizing"),
    );
  }
  if (runsWithoutResizeSupport(old)) errs.push(forbidden("spec", "Pod running on node without support for resize"));
  for (const list of ["containers", "initContainers"]) {
    const names = listItems(spec[list]).map((c) => asObject(c)?.name);
    const oldNames = listItems(oldSpec[list]).map((c) => asObject(c)?.name);
    if (names.length !== oldNames.length) {
      errs.push(forbidden(`spec.${list}`, `${list} may not be added or removed on resize`));
      continue;
    }
    names.forEach((name, i) => {
      if (name !== oldNames[i]) {
        errs.push(forbidden(`spec.${list}[${i}].name`, `${list} may not be renamed or reordered on resize`));
      }
    });
  }
  return errs;
}
