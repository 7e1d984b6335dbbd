// Cluster-wide configuration: leases and lease candidates, priority and runtime classes, API priority and
// fairness, resource quotas, component statuses, API services, IP addresses and service CIDRs.
import type { JsonObject } from "../object/json-object.js";
import { at, int, list, obj, objects, str } from "./fields.js";
import type { PrinterCells } from "./printer-cell.js";

function limited(plc: JsonObject, ...path: string[]): string | number {
  const value = at(plc, "spec", "limited", ...path);
  return typeof value === "number" ? Math.trunc(value) : "<none>";
}

function queuing(plc: JsonObject, field: string): string | number {
  if (
    at(plc, "spec", "limited") === undefined ||
    at(plc, "spec", "limited", "limitResponse", "queuing") === undefined
  ) {
    return "<none>";
  }
  return int(at(plc, "spec", "limited", "limitResponse", "queuing", field));
}

function missingPriorityLevel(fs: JsonObject): string {
  const dangling = objects(at(fs, "status", "conditions")).find((c) => c.type === "Dangling");
  return dangling === undefined ? "?" : str(dangling.status);
}

/** One ResourceQuota column: `name: used/hard` for the hard limits of the kind (requests or limits), sorted. */
function quota(rq: JsonObject, limits: boolean): string {
  const hard = obj(at(rq, "status", "hard"));
  const used = obj(at(rq, "status", "used"));
  return Object.keys(hard)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .filter((name) => {
      const pieces = name.split(".");
      return (pieces.length > 1 && pieces[0] === "limits") === limits;
    })
    .map((name) => `${name}: ${str(used[name]) || "0"}/${str(hard[name]) || "0"}`)
    .join(", ");
}

function healthy(cs: JsonObject): JsonObject | undefined {
  return objects(cs.conditions).find((c) => c.type === "Healthy");
}

function apiServiceAvailable(svc: JsonObject): string {
  const c = objects(at(svc, "status", "conditions")).find((x) => x.type === "Available");
  if (c === undefined) return "Unknown";
  if (c.status === "True" || str(c.reason) === "") return str(c.status);
  return `${str(c.status)} (${str(c.reason)})`;
}

function parentRef(ip: JsonObject): string {
  const ref = at(ip, "spec", "parentRef");
  if (ref === undefined) return "<none>";
  const r = obj(ref);
  const resource = str(r.group) === "" ? str(r.resource) : `${str(r.resource)}.${str(r.group)}`;
  const namespace = str(r.namespace) === "" ? "" : `/${str(r.namespace)}`;
  return `${resource.toLowerCase()}${namespace}/${str(r.name)}`;
}

/** The owner marked controller, as `kind.group/name` (kind alone for the core group). */
function controller(o: JsonObject): string {
  const ref = objects(at(o, "metadata", "ownerReferences")).find((r) => r.controller === true);
  if (ref === undefined) return "<none>";
  const apiVersion = str(ref.apiVersion);
  const parts = apiVersion.split("/");
  if (parts.length > 2 || (parts.length === 2 && parts[0] === "")) return str(ref.name);
  const group = parts.length === 2 ? (parts[0] ?? "") : "";
  const kind = str(ref.kind);
  if (kind === "" && group === "") return str(ref.name);
  return `${(group === "" ? kind : `${kind}.${group}`).toLowerCase()}/${str(ref.name)}`;
}

/** The migration's state: the last true condition among Running, Failed and Succeeded. */
function migrationStatus(svm: JsonObject): string {
  let state = "Unknown";
  for (const c of objects(at(svm, "status", "conditions"))) {
    if (c.status === "True" && (c.type === "Running" || c.type === "Failed" || c.type === "Succeeded")) {
      state = str(c.type);
    }
  }
  return state;
}

export const cells = {
  migrationResource: (svm) => {
    const group = str(at(svm, "spec", "resource", "group"));
    const resource = str(at(svm, "spec", "resource", "resource"));
    return group === "" ? resource : `${resource}.${group}`;
  },
  migrationStatus,
  holder: (l) => str(at(l, "spec", "holderIdentity")),
  leaseName: (c) => str(at(c, "spec", "leaseName")),
  binaryVersion: (c) => str(at(c, "spec", "binaryVersion")),
  emulationVersion: (c) => str(at(c, "spec", "emulationVersion")),
  priorityValue: (pc) => int(pc.value),
  globalDefault: (pc) => pc.globalDefault === true,
  preemptionPolicy: (pc) => str(pc.preemptionPolicy),
  handler: (rc) => str(rc.handler),
  priorityLevel: (fs) => str(at(fs, "spec", "priorityLevelConfiguration", "name")),
  matchingPrecedence: (fs) => int(at(fs, "spec", "matchingPrecedence")),
  distinguisherMethod: (fs) => str(at(fs, "spec", "distinguisherMethod", "type")) || "<none>",
  missingPriorityLevel,
  priorityLevelType: (plc) => str(at(plc, "spec", "type")),
  nominalConcurrencyShares: (plc) => limited(plc, "nominalConcurrencyShares"),
  queues: (plc) => queuing(plc, "queues"),
  handSize: (plc) => queuing(plc, "handSize"),
  queueLengthLimit: (plc) => queuing(plc, "queueLengthLimit"),
  quotaRequests: (rq) => quota(rq, false),
  quotaLimits: (rq) => quota(rq, true),
  componentStatus: (cs) => {
    const c = healthy(cs);
    return c === undefined ? "Unknown" : c.status === "True" ? "Healthy" : "Unhealthy";
  },
  componentMessage: (cs) => str(healthy(cs)?.message),
  componentError: (cs) => str(healthy(cs)?.error),
  apiServiceService: (svc) => {
    const ref = at(svc, "spec", "service");
    return ref === undefined || ref === null ? "Local" : `${str(obj(ref).namespace)}/${str(obj(ref).name)}`;
  },
  apiServiceAvailable,
  parentRef,
  cidrs: (sc) =>
    list(at(sc, "spec", "cidrs"))
      .map(str)
      .join(","),
  controller,
  revision: (cr) => int(cr.revision),
} satisfies PrinterCells;
