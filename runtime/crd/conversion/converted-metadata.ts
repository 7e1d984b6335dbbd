// What kube keeps of a converted object's metadata: a conversion webhook may not move an object (kind,
// name, namespace and uid must stay), and of the metadata it sends back only labels and annotations count;
// everything else is restored from the object sent. Changed labels and annotations must still be valid.

import { formatFieldErrors } from "../../errors/format-field-error.js";
import { isJsonObject, type JsonObject } from "../../object/json-object.js";
import type { KubeObject } from "../../object/kube-object.js";
import { validateAnnotations, validateLabels } from "../../validation/object-meta.js";

/** The Go type json decoding gives a value (`%T`), integers kept as int64 as unstructured decoding does. */
function goTypeName(value: unknown): string {
  if (value === null || value === undefined) return "<nil>";
  if (Array.isArray(value)) return "[]interface {}";
  if (isJsonObject(value)) return "map[string]interface {}";
  if (typeof value === "number") return Number.isInteger(value) ? "int64" : "float64";
  return typeof value === "boolean" ? "bool" : "string";
}

function metaString(obj: KubeObject, field: string): string {
  const meta = obj.metadata;
  const value = isJsonObject(meta) ? meta[field] : undefined;
  return typeof value === "string" ? value : "";
}

function kindOf(obj: KubeObject): string {
  return typeof obj.kind === "string" ? obj.kind : "";
}

/** validateConvertedObject: the first identity field that moved, as kube words it; undefined when none did. */
export function identityChange(original: KubeObject, converted: KubeObject): string | undefined {
  const pairs: [string, string, string][] = [
    ["kind", kindOf(original), kindOf(converted)],
    ["name", metaString(original, "name"), metaString(converted, "name")],
    ["namespace", metaString(original, "namespace"), metaString(converted, "namespace")],
    ["UID", metaString(original, "uid"), metaString(converted, "uid")],
  ];
  for (const [what, expected, actual] of pairs) {
    if (expected !== actual) return `must have the same ${what}: ${expected} != ${actual}`;
  }
  return undefined;
}

/** The labels or annotations the webhook sent, checked when they differ from the original's. */
function keptStringMap(field: "labels" | "annotations", sent: unknown, original: unknown): JsonObject | string {
  if (!isJsonObject(sent)) return `invalid metadata.${field} of type ${goTypeName(sent)} in converted object`;
  if (original !== undefined && original !== null && !isJsonObject(original)) {
    return `invalid metadata.${field} of type ${goTypeName(original)} in original object`;
  }
  const before = isJsonObject(original) ? original : {};
  let changed = Object.keys(before).length !== Object.keys(sent).length;
  for (const [key, value] of Object.entries(sent)) {
    if (typeof value !== "string") {
      return `metadata.${field}[${key}] must be a string, but is ${goTypeName(value)} in converted object`;
    }
    if (before[key] !== value) changed = true;
  }
  if (changed) {
    // kube names the annotations' path `metadata.annotation`.
    const errors =
      field === "labels" ? validateLabels(sent, "metadata.labels") : validateAnnotations(sent, "metadata.annotation");
    if (errors.length > 0) return formatFieldErrors(errors);
  }
  return sent;
}

/**
 * restoreObjectMeta: `converted` gets a copy of the original's metadata with the webhook's labels and
 * annotations (absent or null ones dropped). Returns kube's complaint when the metadata cannot be kept.
 */
export function restoreMetadata(original: KubeObject, converted: KubeObject): string | undefined {
  if (!("metadata" in converted)) return "missing metadata in converted object";
  const sent = converted.metadata;
  if (!isJsonObject(sent)) return `invalid metadata of type ${goTypeName(sent)} in converted object`;
  const restored: unknown = "metadata" in original ? structuredClone(original.metadata) : {};
  if (!isJsonObject(restored)) return `invalid metadata of type ${goTypeName(restored)} in input object`;
  for (const field of ["labels", "annotations"] as const) {
    const value = sent[field];
    if (value === undefined || value === null) {
      delete restored[field];
      continue;
    }
    const kept = keptStringMap(field, value, restored[field]);
    if (typeof kept === "string") return kept;
    restored[field] = kept;
  }
  converted.metadata = restored;
  return undefined;
}
