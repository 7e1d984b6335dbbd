// The fields a field selector is matched against, built per object the way kube's GetAttrs functions
// do: metadata.name and metadata.namespace always, plus the kind's selectable fields read from the
// object. Labels the kind's field label conversion refuses are answered with its own wording.
import { findJsonPath, type JsonPath, JsonPathError, parseJsonPath } from "../codecs/json-path.js";
import { goQuote } from "../errors/go-format.js";
import type { FieldLabelConversion, SelectableField } from "../registry/kind-record.js";
import type { FieldSelector, Fields } from "./field-selector.js";

/** A selectable field as a schema declares it: a label read at its own path, or a label with its paths. */
export type SelectableFieldSpec = string | SelectableField;

/** How kube's fields.Set holds a value: strings as is, booleans and integers printed, anything else "". */
function fieldValue(v: unknown): string {
  if (typeof v === "string") return v;
  if (typeof v === "boolean") return v ? "true" : "false";
  if (typeof v === "number" && Number.isInteger(v)) return String(v);
  return "";
}

/** What `segments` (property names, list indexes) lead to in `object`; undefined where they lead nowhere. */
function walk(object: unknown, segments: readonly (string | number)[]): unknown {
  let v: unknown = object;
  for (const segment of segments) {
    const inside =
      typeof segment === "number" ? Array.isArray(v) : v !== null && typeof v === "object" && !Array.isArray(v);
    if (!inside) return undefined;
    v = (v as Record<string | number, unknown>)[segment];
  }
  return v;
}

/** A selectable field's value read at a dotted path; absent, null or non-scalar reads as "". */
export function readFieldPath(object: unknown, path: string): string {
  return fieldValue(walk(object, path.split(".")));
}

export function labelOf(field: SelectableFieldSpec): string {
  return typeof field === "string" ? field : field.label;
}

/** Reads the value a path selects in an object, undefined where it selects nothing. */
type PathReader = (object: unknown) => unknown;

// `.a.b[0].c`, the paths schemas declare: walked directly, which is far cheaper than evaluating JSONPath.
const plainPath = /^(?:\.[\w-]+|\[\d+\])+$/;

/** Any other JSONPath: its first result; a path that does not apply (an index past the end) selects nothing. */
function jsonPathReader(path: JsonPath): PathReader {
  return (object) => {
    try {
      return findJsonPath(path, object)[0];
    } catch (error) {
      if (error instanceof JsonPathError) return undefined;
      throw error;
    }
  };
}

function pathReader(source: string): PathReader {
  if (!plainPath.test(source)) return jsonPathReader(parseJsonPath(source));
  const segments = [...source.matchAll(/\.([\w-]+)|\[(\d+)\]/g)].map((m) => m[1] ?? Number(m[2]));
  return (object) => walk(object, segments);
}

// Registry records are static, so each field's paths are compiled once.
const compiled = new WeakMap<SelectableField, readonly PathReader[]>();

function readersOf(field: SelectableField): readonly PathReader[] {
  let readers = compiled.get(field);
  if (readers === undefined) {
    readers = (field.jsonPaths ?? [`.${field.label}`]).map(pathReader);
    compiled.set(field, readers);
  }
  return readers;
}

/** The field's value in `object`: the first non-empty value its paths give, else its default. */
export function selectableFieldValue(object: unknown, field: SelectableFieldSpec): string {
  if (typeof field === "string") return readFieldPath(object, field);
  for (const read of readersOf(field)) {
    const value = fieldValue(read(object));
    if (value !== "") return value;
  }
  return field.default ?? "";
}

const nameSegments = ["metadata", "name"];
const namespaceSegments = ["metadata", "namespace"];

/** The fields.Set of `object`: name, namespace and the given selectable fields. */
export function fieldSetOf(object: unknown, fields: readonly SelectableFieldSpec[]): Fields {
  const set: Record<string, string> = {
    "metadata.name": fieldValue(walk(object, nameSegments)),
    "metadata.namespace": fieldValue(walk(object, namespaceSegments)),
  };
  for (const field of fields) set[labelOf(field)] = selectableFieldValue(object, field);
  return set;
}

/** The message core kinds' field label conversions answer with. */
export function fieldLabelNotSupported(label: string): string {
  return `field label not supported: ${label}`;
}

/** DefaultMetaV1FieldSelectorConversion's message, for kinds that register no conversion. */
export function notKnownFieldSelector(label: string): string {
  return `${goQuote(label)} is not a known field selector: only "metadata.name", "metadata.namespace"`;
}

/** A conversion's error format (`field label %q not supported for Job`) applied to `label`. */
export function formatConversionError(format: string, label: string): string {
  return format.replace(/%[sq]/g, (verb) => (verb === "%q" ? goQuote(label) : label));
}

/**
 * The error for the first term (in the selector's sorted order) whose field is not allowed, or
 * undefined when all are; `message` words it (fieldLabelNotSupported or notKnownFieldSelector).
 */
export function unsupportedFieldError(
  selector: FieldSelector,
  allowed: ReadonlySet<string>,
  message: (label: string) => string = fieldLabelNotSupported,
): string | undefined {
  const bad = selector.requirements.find((r) => !allowed.has(r.field));
  return bad === undefined ? undefined : message(bad.field);
}

/** What a kind's field label conversion needs to know: its labels and its own conversion, if any. */
export interface FieldLabels {
  readonly selectableFields: readonly SelectableFieldSpec[];
  readonly fieldLabelConversion?: FieldLabelConversion;
}

/**
 * The kind's field label conversion run over the selector: the error for the first label it refuses, or
 * undefined. Without a conversion of its own a kind takes name, namespace and its selectable fields and
 * words refusals as DefaultMetaV1FieldSelectorConversion does.
 */
export function refusedFieldLabel(selector: FieldSelector, kind: FieldLabels): string | undefined {
  const conversion = kind.fieldLabelConversion;
  const allowed = new Set(["metadata.name", ...kind.selectableFields.map(labelOf)]);
  if (conversion?.namespace !== false) allowed.add("metadata.namespace");
  const message =
    conversion === undefined
      ? notKnownFieldSelector
      : (label: string) => formatConversionError(conversion.error, label);
  return unsupportedFieldError(selector, allowed, message);
}
