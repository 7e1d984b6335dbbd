// kube-apiserver's LimitRanger admission: the LimitRanges of the object's namespace give pods their
// containers' default requests and limits (mutating) and bound pods' and claims' resources (validating).
// Pods are seen on create and on the resize subresource (their containers cannot change otherwise), claims
// on create and update. LimitRanges are read from the watch cache; when it has none for the namespace, a
// consistent read is made and its answer kept for 30 seconds, as kube backs its informer with live lookups.
import type { JsonObject } from "../../object/json-object.js";
import { type ResourceList, readResourceList } from "../../quota/resource-list.js";
import { builtinKind } from "../../registry/kinds.js";
import type { ResourceApi } from "../../resources/resource-api.js";
import { readMilliQuantity } from "../../validation/quantity-arithmetic.js";
import { asObject, listItems } from "../../validation/walk.js";
import type { AdmissionAttributes, AdmissionPlugin } from "../admission.js";
import { admissionForbidden } from "../admission-forbidden.js";
import {
  aggregateMessage,
  type Bound,
  limitRequestRatioConstraint,
  maxConstraint,
  maxRequestConstraint,
  minConstraint,
} from "./limit-constraints.js";
import { containerResources, mergePodDefaults, podResources } from "./pod-resources.js";

const limitRangeKind = builtinKind("", "v1", "limitranges");

/** kube's liveTTL and the size of its live-lookup LRU. */
const liveLookupMs = 30_000;
const liveLookupEntries = 10_000;

interface LiveLookup {
  expires: number;
  items: JsonObject[];
}

/** SupportsAttributes: pod creates, pod resizes, claim creates and updates; no other subresource. */
function supports(a: AdmissionAttributes): boolean {
  if (a.operation !== "CREATE" && a.operation !== "UPDATE") return false;
  if (a.kind.group !== "") return false;
  const isPod = a.kind.kind === "Pod";
  if (a.subresource === "resize" && isPod && a.operation === "UPDATE") return true;
  if (a.subresource !== undefined && a.subresource !== "") return false;
  if (isPod && a.operation === "UPDATE") return false;
  return isPod || a.kind.kind === "PersistentVolumeClaim";
}

/** The LimitRange's items of one type, each bound as (resource, value) pairs in name order. */
function limitItems(limitRange: JsonObject, type: string): JsonObject[] {
  return listItems(asObject(limitRange.spec)?.limits)
    .map(asObject)
    .filter((item): item is JsonObject => item !== undefined && item.type === type);
}

function bounds(item: JsonObject, field: string): Bound[] {
  const list = readResourceList(item[field], readMilliQuantity);
  return [...list.keys()].sort().map((resource) => ({
    limitType: String(item.type),
    resource,
    enforced: list.get(resource) as Bound["enforced"],
  }));
}

function sortedList(value: unknown): ResourceList {
  const list = readResourceList(value, readMilliQuantity);
  return new Map([...list].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)));
}

/** min, max and maxLimitRequestRatio of one item against one set of requests and limits. */
function checkBounds(item: JsonObject, requests: ResourceList, limits: ResourceList): string[] {
  const found: (string | undefined)[] = [
    ...bounds(item, "min").map((b) => minConstraint(b, requests, limits)),
    ...bounds(item, "max").map((b) => maxConstraint(b, requests, limits)),
    ...bounds(item, "maxLimitRequestRatio").map((b) => limitRequestRatioConstraint(b, requests, limits)),
  ];
  return found.filter((m): m is string => m !== undefined);
}

function mutatePod(limitRange: JsonObject, pod: JsonObject): void {
  const limits: ResourceList = new Map();
  const requests: ResourceList = new Map();
  for (const item of limitItems(limitRange, "Container")) {
    for (const [name, q] of sortedList(item.defaultRequest)) requests.set(name, q);
    for (const [name, q] of sortedList(item.default)) limits.set(name, q);
  }
  mergePodDefaults(pod, { limits, requests });
}

function validatePod(limitRange: JsonObject, pod: JsonObject): string[] {
  const errors: string[] = [];
  const spec = asObject(pod.spec);
  for (const item of listItems(asObject(limitRange.spec)?.limits).map(asObject)) {
    if (item === undefined) continue;
    if (item.type === "Container") {
      for (const field of ["containers", "initContainers"]) {
        for (const container of listItems(spec?.[field]).map(asObject)) {
          if (container === undefined) continue;
          const requests = containerResources(container, "requests");
          errors.push(...checkBounds(item, requests, containerResources(container, "limits")));
        }
      }
    }
    if (item.type === "Pod")
      errors.push(...checkBounds(item, podResources(pod, "requests"), podResources(pod, "limits")));
  }
  return errors;
}

/** Claims: min and max bound spec.resources.requests only; claims get no defaults. */
function validateClaim(limitRange: JsonObject, claim: JsonObject): string[] {
  const requests = readResourceList(asObject(asObject(claim.spec)?.resources)?.requests, readMilliQuantity);
  return limitItems(limitRange, "PersistentVolumeClaim")
    .flatMap((item) => [
      ...bounds(item, "min").map((b) => minConstraint(b, requests, new Map())),
      ...bounds(item, "max").map((b) => maxRequestConstraint(b, requests)),
    ])
    .filter((m): m is string => m !== undefined);
}

export function limitRanger(api: ResourceApi): AdmissionPlugin {
  const liveLookups = new Map<string, LiveLookup>();
  const inFlight = new Map<string, Promise<JsonObject[]>>();

  async function liveList(a: AdmissionAttributes, namespace: string): Promise<JsonObject[]> {
    try {
      const { items } = await api.list({ kind: limitRangeKind, namespace });
      return items.map((item) => item.object as JsonObject);
    } catch (error) {
      throw admissionForbidden(a, (error as Error).message);
    }
  }

  /** One live read per namespace at a time (kube's singleflight); its answer is kept for liveLookupMs. */
  function lookUp(a: AdmissionAttributes, namespace: string): Promise<JsonObject[]> {
    const running = inFlight.get(namespace);
    if (running !== undefined) return running;
    const read = liveList(a, namespace)
      .then((items) => {
        liveLookups.delete(namespace);
        liveLookups.set(namespace, { expires: Date.now() + liveLookupMs, items });
        if (liveLookups.size > liveLookupEntries) liveLookups.delete(liveLookups.keys().next().value as string);
        return items;
      })
      .finally(() => inFlight.delete(namespace));
    inFlight.set(namespace, read);
    return read;
  }

  async function limitRanges(a: AdmissionAttributes, namespace: string): Promise<JsonObject[]> {
    let cached: JsonObject[];
    try {
      const { items } = await api.list({ kind: limitRangeKind, namespace }, { resourceVersion: "0" });
      cached = items.map((item) => item.object as JsonObject);
    } catch {
      const resource = `${a.kind.group}/${a.kind.version}, Resource=${a.kind.resource.plural}`;
      throw admissionForbidden(
        a,
        `unable to ${a.operation} ${resource} at this time because there was an error enforcing limit ranges`,
      );
    }
    if (cached.length > 0) return cached;
    const entry = liveLookups.get(namespace);
    if (entry !== undefined && entry.expires >= Date.now()) {
      liveLookups.delete(namespace);
      liveLookups.set(namespace, entry);
      return entry.items;
    }
    return lookUp(a, namespace);
  }

  async function run(a: AdmissionAttributes, step: (limitRange: JsonObject, object: JsonObject) => string[]) {
    if (!supports(a) || a.object === undefined) return;
    const old = a.oldObject?.metadata as { deletionTimestamp?: string } | undefined;
    if (old?.deletionTimestamp !== undefined) return;
    const namespace = a.namespace ?? "";
    for (const limitRange of await limitRanges(a, namespace)) {
      const message = aggregateMessage(step(limitRange, a.object as JsonObject));
      if (message !== undefined) throw admissionForbidden(a, message);
    }
  }

  return {
    name: "LimitRanger",
    mutate: (a) =>
      run(a, (limitRange, object) => {
        if (a.kind.resource.plural === "pods") mutatePod(limitRange, object);
        return [];
      }),
    validate: (a) =>
      run(a, (limitRange, object) => {
        if (a.kind.resource.plural === "pods") return validatePod(limitRange, object);
        if (a.kind.resource.plural === "persistentvolumeclaims") return validateClaim(limitRange, object);
        return [];
      }),
  };
}
