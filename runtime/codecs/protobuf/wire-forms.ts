// apimachinery types whose JSON form is not an object of their wire message's fields (kapi's schemas
// mark them with x-kapi-proto-message): each is read from its message and written as Go's MarshalJSON
// writes it, and written back into its message's fields as Go's Marshal methods write them. `undefined` is
// Go's null: a zero Time, a RawExtension without bytes.

import { isJsonObject } from "../../object/json-object.js";
import { parseJson } from "../json-body.js";
import { jsonText } from "../json-text.js";
import { parseRfc3339 } from "../table.js";
import { ProtobufError } from "./wire-reader.js";

export type WireForm =
  /** metav1.Time {seconds, nanos}: RFC 3339 in whole seconds (kube drops the nanoseconds on decoding). */
  | "time"
  /** metav1.MicroTime {seconds, nanos}: RFC 3339 with six fraction digits. */
  | "micro-time"
  /** intstr.IntOrString {type, intVal, strVal}: a number or a string. */
  | "int-or-string"
  /** resource.Quantity {string}: the string. */
  | "quantity"
  /** runtime.RawExtension, metav1.FieldsV1, apiextensions JSON {raw}: the JSON the bytes hold. */
  | "raw-json"
  /** A JSON array travelling as a message of one repeated field (metav1.Verbs, ExtraValue). */
  | "list"
  /** apiextensions JSONSchemaPropsOrArray {schema, jSONSchemas}: the list when it has items, else the schema. */
  | "schema-or-array"
  /** JSONSchemaPropsOrBool {allows, schema}: the schema when set, else the boolean. */
  | "schema-or-bool"
  /** JSONSchemaPropsOrStringArray {schema, property}: the list when it has items, else the schema. */
  | "schema-or-string-array";

/** Forms named by their message, where the JSON shape alone does not tell which it is. */
export const namedForms: Readonly<Record<string, WireForm>> = {
  "k8s.io.apimachinery.pkg.apis.meta.v1.Time": "time",
  "k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime": "micro-time",
  "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrArray": "schema-or-array",
  "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrBool": "schema-or-bool",
  "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrStringArray": "schema-or-string-array",
};

function nonEmpty(list: unknown): unknown[] | undefined {
  return Array.isArray(list) && list.length > 0 ? list : undefined;
}

const nanosPerSecond = 1_000_000_000n;

function pad(n: number, width: number): string {
  return String(n).padStart(width, "0");
}

/** Go's RFC 3339 layout in UTC, with `fraction` digits of the nanoseconds when asked. */
function rfc3339(seconds: bigint, nanos: bigint, fraction: number): string {
  const date = new Date(Number(seconds) * 1000);
  if (Number.isNaN(date.getTime())) throw new ProtobufError("Time.MarshalJSON: year outside of range [0,9999]");
  const y = date.getUTCFullYear();
  const year = y < 0 ? `-${pad(-y, 4)}` : pad(y, 4);
  const clock = `${pad(date.getUTCHours(), 2)}:${pad(date.getUTCMinutes(), 2)}:${pad(date.getUTCSeconds(), 2)}`;
  const day = `${year}-${pad(date.getUTCMonth() + 1, 2)}-${pad(date.getUTCDate(), 2)}`;
  const frac = fraction === 0 ? "" : `.${nanos.toString().padStart(9, "0").slice(0, fraction)}`;
  return `${day}T${clock}${frac}Z`;
}

/** time.Unix(seconds, nanos): nanoseconds outside [0, 1e9) carry into the seconds. */
function unixTime(fields: Record<string, unknown>): { seconds: bigint; nanos: bigint } {
  const total = BigInt(Number(fields.seconds ?? 0)) * nanosPerSecond + BigInt(Number(fields.nanos ?? 0));
  let seconds = total / nanosPerSecond;
  let nanos = total % nanosPerSecond;
  if (nanos < 0n) {
    nanos += nanosPerSecond;
    seconds -= 1n;
  }
  return { seconds, nanos };
}

/**
 * The JSON value of a wire form, from its message's fields (by their .proto names) and whether the
 * message had no bytes at all.
 */
export function formValue(form: WireForm, fields: Record<string, unknown>, empty: boolean): unknown {
  switch (form) {
    case "time":
      return empty ? undefined : rfc3339(BigInt(Number(fields.seconds ?? 0)), 0n, 0);
    case "micro-time": {
      if (empty) return undefined;
      const { seconds, nanos } = unixTime(fields);
      return rfc3339(seconds, nanos, 6);
    }
    case "int-or-string": {
      const type = fields.type ?? 0;
      if (type === 1) return fields.strVal ?? "";
      if (type === 0) return fields.intVal ?? 0;
      throw new ProtobufError("impossible IntOrString.Type");
    }
    case "quantity":
      return fields.string ?? "0";
    case "raw-json": {
      const raw = Object.values(fields)[0];
      if (!(raw instanceof Uint8Array) || raw.length === 0) return undefined;
      const parsed = parseJson(Buffer.from(raw));
      if ("error" in parsed) throw new ProtobufError(parsed.error);
      return parsed.value;
    }
    case "list":
      return Object.values(fields)[0];
    case "schema-or-array":
      return nonEmpty(fields.jSONSchemas) ?? fields.schema;
    case "schema-or-bool":
      return fields.schema ?? fields.allows === true;
    case "schema-or-string-array":
      return nonEmpty(fields.property) ?? fields.schema;
  }
}

/** The nanoseconds of an RFC 3339 time's fraction (`.123456` is 123456000). */
function fractionNanos(time: string): number {
  const fraction = /\.(\d+)/.exec(time)?.[1] ?? "";
  return Number(fraction.slice(0, 9).padEnd(9, "0"));
}

/**
 * A wire form's message fields (by their .proto names) for its JSON value, as its Go type writes them:
 * every field a Go value holds, zero or not; undefined where nothing is written (Go's null). `only` is the
 * name of the message's one field, for the forms that have one.
 */
export function formFields(form: WireForm, value: unknown, only: string): Record<string, unknown> | undefined {
  switch (form) {
    case "time":
    case "micro-time": {
      const ms = typeof value === "string" ? parseRfc3339(value) : undefined;
      if (ms === undefined) return undefined;
      // metav1.Time's ProtoTime leaves the nanoseconds out; MicroTime keeps them.
      return { seconds: Math.floor(ms / 1000), nanos: form === "time" ? 0 : fractionNanos(value as string) };
    }
    case "int-or-string":
      if (typeof value === "number") return { type: 0, intVal: value, strVal: "" };
      return typeof value === "string" ? { type: 1, intVal: 0, strVal: value } : undefined;
    case "quantity":
      return typeof value === "string" || typeof value === "number" ? { string: String(value) } : undefined;
    case "raw-json":
      return value === undefined || value === null ? undefined : { [only]: Buffer.from(jsonText(value)) };
    case "list":
      return Array.isArray(value) ? { [only]: value } : undefined;
    case "schema-or-array":
      if (Array.isArray(value)) return { jSONSchemas: value };
      return isJsonObject(value) ? { schema: value } : undefined;
    case "schema-or-bool":
      if (typeof value === "boolean") return { allows: value };
      return isJsonObject(value) ? { allows: true, schema: value } : undefined;
    case "schema-or-string-array":
      if (Array.isArray(value)) return { property: value };
      return isJsonObject(value) ? { schema: value } : undefined;
  }
}
