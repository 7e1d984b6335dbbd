// Hand-written events.k8s.io conversions: events.k8s.io/v1 Event is stored as core/v1 Event (one store, as in
// kube-apiserver), so its objects convert to and from the core group's shape. kube converts through Go structs,
// so fields Go always encodes (structs, times without omitempty effect, core's reporting strings) appear in
// the converted object even when unset: `{}`, `null`, `""` as kube-apiserver answers.
import type { CrossGroupConversion } from "../convert.js";
import { isJsonObject, type JsonObject } from "../json-values.js";

function copied(value: unknown): unknown {
  return structuredClone(value);
}

/** A Go struct field: always encoded, `{}` when unset. */
function struct(value: unknown): unknown {
  return isJsonObject(value) ? structuredClone(value) : {};
}

/** A metav1.Time or MicroTime field: always encoded, `null` when unset. */
function time(value: unknown): unknown {
  return value === undefined ? null : structuredClone(value);
}

function setDefined(out: JsonObject, name: string, value: unknown): void {
  if (value !== undefined && value !== "" && value !== 0) out[name] = copied(value);
}

export function convert_v1_Event_To_core_v1_Event(src: JsonObject): JsonObject {
  const out: JsonObject = { kind: "Event", apiVersion: "v1" };
  if (src.metadata !== undefined) out.metadata = copied(src.metadata);
  out.involvedObject = struct(src.regarding);
  setDefined(out, "reason", src.reason);
  setDefined(out, "message", src.note);
  out.source = struct(src.deprecatedSource);
  out.firstTimestamp = time(src.deprecatedFirstTimestamp);
  out.lastTimestamp = time(src.deprecatedLastTimestamp);
  setDefined(out, "count", src.deprecatedCount);
  setDefined(out, "type", src.type);
  out.eventTime = time(src.eventTime);
  if (src.series !== undefined) out.series = copied(src.series);
  setDefined(out, "action", src.action);
  if (src.related !== undefined) out.related = copied(src.related);
  out.reportingComponent = typeof src.reportingController === "string" ? src.reportingController : "";
  out.reportingInstance = typeof src.reportingInstance === "string" ? src.reportingInstance : "";
  return out;
}

export function convert_core_v1_Event_To_v1_Event(src: JsonObject): JsonObject {
  const out: JsonObject = { kind: "Event", apiVersion: "events.k8s.io/v1" };
  if (src.metadata !== undefined) out.metadata = copied(src.metadata);
  out.eventTime = time(src.eventTime);
  if (src.series !== undefined) out.series = copied(src.series);
  setDefined(out, "reportingController", src.reportingComponent);
  setDefined(out, "reportingInstance", src.reportingInstance);
  setDefined(out, "action", src.action);
  setDefined(out, "reason", src.reason);
  out.regarding = struct(src.involvedObject);
  if (src.related !== undefined) out.related = copied(src.related);
  setDefined(out, "note", src.message);
  setDefined(out, "type", src.type);
  out.deprecatedSource = struct(src.source);
  out.deprecatedFirstTimestamp = time(src.firstTimestamp);
  out.deprecatedLastTimestamp = time(src.lastTimestamp);
  setDefined(out, "deprecatedCount", src.count);
  return out;
}

/** The conversions between events.k8s.io/v1 Event and the core Event it is stored as. */
export const crossGroupConversions: CrossGroupConversion[] = [
  { kind: "Event", from: "events.k8s.io/v1", to: "v1", convert: convert_v1_Event_To_core_v1_Event },
  { kind: "Event", from: "v1", to: "events.k8s.io/v1", convert: convert_core_v1_Event_To_v1_Event },
];
