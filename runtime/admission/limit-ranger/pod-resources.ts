// What LimitRanger reads and writes in a pod: the defaults a Container limit merges into every container
// and init container that lacks them (recorded in the kubernetes.io/limit-ranger annotation), and the pod's
// effective requests and limits that a Pod limit bounds (kube's podRequests/podLimits over the spec only).
import type { JsonObject } from "../../object/json-object.js";
import { type ResourceList, readResourceList } from "../../quota/resource-list.js";
import {
  addQuantity,
  compareQuantity,
  formatQuantity,
  readMilliQuantity,
} from "../../validation/quantity-arithmetic.js";
import { asObject, listItems } from "../../validation/walk.js";

export const limitRangerAnnotation = "kubernetes.io/limit-ranger";

/** The resources kube lets a pod's own spec.resources set (PodLevelResources, on in v1.36). */
const podLevelResources = new Set(["cpu", "memory"]);

/** A Container limit's defaults: `default` for limits, `defaultRequest` for requests. */
export interface ContainerDefaults {
  limits: ResourceList;
  requests: ResourceList;
}

function containers(pod: JsonObject, field: "containers" | "initContainers"): JsonObject[] {
  return listItems(asObject(pod.spec)?.[field]).filter((c): c is JsonObject => asObject(c) !== undefined);
}

/** Adds the defaults the container lacks; returns what it set, in the annotation's words. */
function mergeContainer(container: JsonObject, defaults: ContainerDefaults, label: string): string[] {
  const resources = asObject(container.resources) ?? {};
  const set = (field: "limits" | "requests", from: ResourceList): string[] => {
    const present = asObject(resources[field]) ?? {};
    const merged: JsonObject = { ...present };
    const added: string[] = [];
    for (const [name, quantity] of from) {
      if (name in present) continue;
      merged[name] = formatQuantity(quantity);
      added.push(name);
    }
    if (added.length > 0) resources[field] = merged;
    return added.sort();
  };
  const requests = set("requests", defaults.requests);
  const limits = set("limits", defaults.limits);
  if (requests.length > 0 || limits.length > 0) container.resources = resources;
  const name = String(container.name ?? "");
  const notes: string[] = [];
  if (requests.length > 0) notes.push(`${requests.join(", ")} request for ${label} ${name}`);
  if (limits.length > 0) notes.push(`${limits.join(", ")} limit for ${label} ${name}`);
  return notes;
}

/** mergePodResourceRequirements: containers first, then init containers; the annotation says what was set. */
export function mergePodDefaults(pod: JsonObject, defaults: ContainerDefaults): void {
  const notes = [
    ...containers(pod, "containers").flatMap((c) => mergeContainer(c, defaults, "container")),
    ...containers(pod, "initContainers").flatMap((c) => mergeContainer(c, defaults, "init container")),
  ];
  if (notes.length === 0) return;
  const metadata = asObject(pod.metadata) ?? {};
  pod.metadata = metadata;
  metadata.annotations = {
    ...asObject(metadata.annotations),
    [limitRangerAnnotation]: `LimitRanger plugin set: ${notes.join("; ")}`,
  };
}

export function containerResources(container: JsonObject, field: "limits" | "requests"): ResourceList {
  return readResourceList(asObject(container.resources)?.[field], readMilliQuantity);
}

function addInto(list: ResourceList, more: ResourceList): void {
  for (const [name, quantity] of more) {
    const present = list.get(name);
    list.set(name, present === undefined ? quantity : addQuantity(present, quantity));
  }
}

function maxInto(list: ResourceList, more: ResourceList): void {
  for (const [name, quantity] of more) {
    const present = list.get(name);
    if (present === undefined || compareQuantity(quantity, present) > 0) list.set(name, quantity);
  }
}

/**
 * The pod's requests or limits: the containers' sum plus the sidecars' (restartable init containers), or
 * an init container's value with the sidecars started before it, whichever is greater; the pod's own
 * spec.resources replace the sum for cpu and memory.
 */
export function podResources(pod: JsonObject, field: "limits" | "requests"): ResourceList {
  const total: ResourceList = new Map();
  for (const container of containers(pod, "containers")) addInto(total, containerResources(container, field));
  const sidecars: ResourceList = new Map();
  const initMax: ResourceList = new Map();
  for (const container of containers(pod, "initContainers")) {
    const own = containerResources(container, field);
    let effective: ResourceList;
    if (container.restartPolicy === "Always") {
      addInto(total, own);
      addInto(sidecars, own);
      effective = sidecars;
    } else {
      effective = new Map(own);
      addInto(effective, sidecars);
    }
    maxInto(initMax, effective);
  }
  maxInto(total, initMax);
  const podLevel = readResourceList(asObject(asObject(asObject(pod.spec)?.resources))?.[field], readMilliQuantity);
  for (const [name, quantity] of podLevel) if (podLevelResources.has(name)) total.set(name, quantity);
  return total;
}
