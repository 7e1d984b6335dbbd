// kube's PodRequests and PodLimits (component-helpers/resource): what a pod asks for as a whole, read by the
// quota evaluator and by the PodResizeValidator admission plugin.
import { addQuantity, compareQuantity, zeroQuantity } from "../validation/quantity-arithmetic.js";
import { isHugePageResourceName } from "../validation/resource-names.js";
import { asObject, type JsonObject, listItems } from "../validation/walk.js";
import { addLists, type ResourceList, readResourceList } from "./resource-list.js";

function maxLists(a: ResourceList, b: ResourceList): ResourceList {
  const result: ResourceList = new Map(a);
  for (const [name, q] of b) {
    const current = result.get(name);
    if (current === undefined || compareQuantity(q, current) > 0) result.set(name, q);
  }
  return result;
}

/** One container's `resources.requests` or `resources.limits`. */
export function containerResources(container: unknown, which: "requests" | "limits"): ResourceList {
  return readResourceList(asObject(asObject(container)?.resources)?.[which]);
}

/** The resources a pod may set at pod level (IsSupportedPodLevelResource). */
function podLevelResource(name: string): boolean {
  return name === "cpu" || name === "memory" || isHugePageResourceName(name);
}

/**
 * The containers' sum, at least the largest init container step (restartable init containers run alongside
 * the rest), then pod-level resources where the pod sets them, then the pod's overhead (for limits, only on
 * resources already limited).
 */
export function podResourceTotals(spec: JsonObject, which: "requests" | "limits"): ResourceList {
  let total: ResourceList = new Map();
  for (const c of listItems(spec.containers)) total = addLists(total, containerResources(c, which));
  let sidecars: ResourceList = new Map();
  let initMax: ResourceList = new Map();
  for (const c of listItems(spec.initContainers)) {
    let step = containerResources(c, which);
    if (asObject(c)?.restartPolicy === "Always") {
      total = addLists(total, step);
      sidecars = addLists(sidecars, step);
      step = sidecars;
    } else {
      step = addLists(step, sidecars);
    }
    initMax = maxLists(initMax, step);
  }
  total = maxLists(total, initMax);
  for (const [name, q] of readResourceList(asObject(spec.resources)?.[which])) {
    if (podLevelResource(name)) total.set(name, q);
  }
  for (const [name, q] of readResourceList(spec.overhead)) {
    const current = total.get(name);
    if (which === "requests") total.set(name, current === undefined ? q : addQuantity(current, q));
    else if (current !== undefined && compareQuantity(current, zeroQuantity) !== 0)
      total.set(name, addQuantity(current, q));
  }
  return total;
}
