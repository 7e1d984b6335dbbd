// kube-apiserver's Event validation (ValidateEventCreate / ValidateEventUpdate), on the core/v1 shape both event
// APIs store. Writes through core/v1 get the legacy rules only; writes through events.k8s.io/v1 also get the
// strict ones. Field paths name the core fields (message, source, count…) whichever API was written, as kube's
// errors do, except the reporting controller, named as the request's API names it.
import { isDeepStrictEqual } from "node:util";
import { type FieldError, invalid, required } from "../errors/field-error.js";
import { GoStruct } from "../errors/go-format.js";
import { isJsonObject, type JsonObject } from "../object/json-object.js";
import { qualifiedNameErrors } from "../selection/label-validation.js";
import { fieldImmutable } from "../validation/field-rules.js";
import { dnsSubdomainErrors } from "../validation/name-formats.js";

const reportingInstanceLengthLimit = 128;
const actionLengthLimit = 128;
const reasonLengthLimit = 128;
const noteLengthLimit = 1024;

export interface EventRules {
  /** events.k8s.io/v1 and newer: the strict rules on top of the legacy ones. */
  strict: boolean;
  /** How the request's API names the reporting controller field. */
  reportingControllerField: string;
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function object(value: unknown): JsonObject {
  return isJsonObject(value) ? value : {};
}

/** A metav1.Time or MicroTime that is Go's zero time: unset, null, or 0001-01-01. */
function isZeroTime(value: unknown): boolean {
  if (typeof value !== "string" || value === "") return true;
  const ms = Date.parse(value);
  return Number.isNaN(ms) || ms === Date.parse("0001-01-01T00:00:00Z");
}

function namespaceOf(event: JsonObject): string {
  return text(object(event.metadata).namespace);
}

function legacyErrors(event: JsonObject, rules: EventRules): FieldError[] {
  const errs: FieldError[] = [];
  const namespace = namespaceOf(event);
  const involvedNamespace = text(object(event.involvedObject).namespace);
  const mismatch = () => invalid("involvedObject.namespace", involvedNamespace, "does not match event.namespace");
  if (isZeroTime(event.eventTime)) {
    if (involvedNamespace === "" ? namespace !== "" && namespace !== "default" : namespace !== involvedNamespace) {
      errs.push(mismatch());
    }
  } else {
    if (involvedNamespace === "" && namespace !== "default" && namespace !== "kube-system") errs.push(mismatch());
    const controller = text(event.reportingComponent);
    const controllerField = rules.reportingControllerField;
    if (controller === "") errs.push(required(controllerField));
    for (const msg of qualifiedNameErrors(controller)) errs.push(invalid(controllerField, controller, msg));
    const instance = text(event.reportingInstance);
    if (instance === "") errs.push(required("reportingInstance"));
    if (instance.length > reportingInstanceLengthLimit) {
      errs.push(invalid("reportingInstance", "", `can have at most ${reportingInstanceLengthLimit} characters`));
    }
    const action = text(event.action);
    if (action === "") errs.push(required("action"));
    if (action.length > actionLengthLimit) {
      errs.push(invalid("action", "", `can have at most ${actionLengthLimit} characters`));
    }
    const reason = text(event.reason);
    if (reason === "") errs.push(required("reason"));
    if (reason.length > reasonLengthLimit) {
      errs.push(invalid("reason", "", `can have at most ${reasonLengthLimit} characters`));
    }
    if (text(event.message).length > noteLengthLimit) {
      errs.push(invalid("message", "", `can have at most ${noteLengthLimit} characters`));
    }
  }
  for (const msg of dnsSubdomainErrors(namespace)) errs.push(invalid("namespace", namespace, msg));
  return errs;
}

function seriesErrors(event: JsonObject): FieldError[] {
  if (!isJsonObject(event.series)) return [];
  const errs: FieldError[] = [];
  const count = event.series.count;
  if (typeof count !== "number" || count < 2) errs.push(invalid("series.count", "", "should be at least 2"));
  if (isZeroTime(event.series.lastObservedTime)) errs.push(required("series.lastObservedTime"));
  return errs;
}

/** ValidateEventCreate: `event` in the core/v1 shape. */
export function validateEventCreate(event: JsonObject, rules: EventRules): FieldError[] {
  const errs = legacyErrors(event, rules);
  if (!rules.strict) return errs;
  errs.push(...seriesErrors(event));
  if (isZeroTime(event.eventTime)) errs.push(required("eventTime"));
  const type = text(event.type);
  if (type !== "Normal" && type !== "Warning") errs.push(invalid("type", "", `has invalid value: ${type}`));
  if (!isZeroTime(event.firstTimestamp)) errs.push(invalid("firstTimestamp", "", "needs to be unset"));
  if (!isZeroTime(event.lastTimestamp)) errs.push(invalid("lastTimestamp", "", "needs to be unset"));
  if (typeof event.count === "number" && event.count !== 0) errs.push(invalid("count", "", "needs to be unset"));
  const source = object(event.source);
  if (text(source.component) !== "" || text(source.host) !== "") {
    errs.push(invalid("source", "", "needs to be unset"));
  }
  return errs;
}

/** An ObjectReference or EventSource as Go prints the struct in an immutable-field error. */
function goStruct(value: unknown, fields: readonly [string, string][]): GoStruct {
  const src = object(value);
  return new GoStruct(Object.fromEntries(fields.map(([goName, jsonName]) => [goName, text(src[jsonName])])));
}

const objectReferenceFields: readonly [string, string][] = [
  ["Kind", "kind"],
  ["Namespace", "namespace"],
  ["Name", "name"],
  ["UID", "uid"],
  ["APIVersion", "apiVersion"],
  ["ResourceVersion", "resourceVersion"],
  ["FieldPath", "fieldPath"],
];
const eventSourceFields: readonly [string, string][] = [
  ["Component", "component"],
  ["Host", "host"],
];

/** A time as Go compares it in an update: unset and null are the same zero time. */
function timeValue(value: unknown): number {
  return isZeroTime(value) ? 0 : Date.parse(value as string);
}

/** Microseconds since the epoch of a MicroTime (sub-microsecond digits dropped, as kube tolerates them). */
function microseconds(value: unknown): string {
  if (isZeroTime(value)) return "";
  const match = /\.(\d+)/.exec(value as string);
  const micros = (match?.[1] ?? "").padEnd(6, "0").slice(0, 6);
  return `${Math.floor(Date.parse(value as string) / 1000)}.${micros}`;
}

/** ValidateEventUpdate: both events in the core/v1 shape. */
export function validateEventUpdate(event: JsonObject, old: JsonObject, rules: EventRules): FieldError[] {
  const errs = legacyErrors(event, rules);
  if (!rules.strict) return errs;
  if (!isDeepStrictEqual(event.series, old.series)) errs.push(...seriesErrors(event));
  const immutable = (field: string, same: boolean, shown: unknown) => {
    if (!same) errs.push(invalid(field, shown, fieldImmutable));
  };
  const involved = goStruct(event.involvedObject, objectReferenceFields);
  const oldInvolved = goStruct(old.involvedObject, objectReferenceFields);
  immutable("involvedObject", isDeepStrictEqual(involved.fields, oldInvolved.fields), involved);
  for (const field of ["reason", "message"]) {
    immutable(field, text(event[field]) === text(old[field]), text(event[field]));
  }
  const source = goStruct(event.source, eventSourceFields);
  immutable("source", isDeepStrictEqual(source.fields, goStruct(old.source, eventSourceFields).fields), source);
  for (const field of ["firstTimestamp", "lastTimestamp"]) {
    immutable(field, timeValue(event[field]) === timeValue(old[field]), event[field] ?? null);
  }
  const count = typeof event.count === "number" ? event.count : 0;
  immutable("count", count === (typeof old.count === "number" ? old.count : 0), count);
  immutable("type", text(event.type) === text(old.type), text(event.type));
  immutable("eventTime", microseconds(event.eventTime) === microseconds(old.eventTime), event.eventTime ?? null);
  immutable("action", text(event.action) === text(old.action), text(event.action));
  immutable("related", isDeepStrictEqual(event.related ?? null, old.related ?? null), event.related ?? null);
  immutable(
    rules.reportingControllerField,
    text(event.reportingComponent) === text(old.reportingComponent),
    text(event.reportingComponent),
  );
  immutable(
    "reportingInstance",
    text(event.reportingInstance) === text(old.reportingInstance),
    text(event.reportingInstance),
  );
  return errs;
}
