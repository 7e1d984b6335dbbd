// A pod's quality-of-service class as kube computes it when the pod is created (qos.ComputePodQOS):
// BestEffort without cpu or memory requests and limits, Guaranteed when every container limits both
// and the requests equal the limits, Burstable otherwise.
import { quantityValue } from "../validation/quantity.js";
import { asObject, type JsonObject, listItems } from "../validation/walk.js";

export type QOSClass = "BestEffort" | "Burstable" | "Guaranteed";

const computeResources = ["cpu", "memory"];

function add(totals: Map<string, number>, list: unknown, found?: Set<string>): void {
  for (const [name, q] of Object.entries(asObject(list) ?? {})) {
    const v = quantityValue(q);
    if (!computeResources.includes(name) || v === undefined || v <= 0) continue;
    totals.set(name, (totals.get(name) ?? 0) + v);
    found?.add(name);
  }
}

export function podQOSClass(spec: JsonObject): QOSClass {
  const requests = new Map<string, number>();
  const limits = new Map<string, number>();
  let guaranteed = true;
  for (const item of [...listItems(spec.initContainers), ...listItems(spec.containers)]) {
    const resources = asObject(asObject(item)?.resources) ?? {};
    add(requests, resources.requests);
    const limited = new Set<string>();
    add(limits, resources.limits, limited);
    if (!computeResources.every((r) => limited.has(r))) guaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return "BestEffort";
  if (guaranteed && requests.size === limits.size) {
    for (const [name, v] of requests) if (limits.get(name) !== v) guaranteed = false;
    if (guaranteed) return "Guaranteed";
  }
  return "Burstable";
}
