// The fields a field selector is matched against, built per object the way kube's GetAttrs functions
// do: metadata.name and metadata.namespace always, plus the kind's selectable field paths read from
// the object. Unknown fields are refused with the caller's conversion function's wording.
import { goQuote } from "../errors/format-field-error.js";
import type { FieldSelector, Fields } from "./field-selector.js";

/** A selectable field's value as kube's fields.Set holds it; absent, null or non-scalar reads as "". */
export function readFieldPath(object: unknown, path: string): string {
  let v: unknown = object;
  for (const segment of path.split(".")) {
    if (v === null || typeof v !== "object" || Array.isArray(v)) return "";
    v = (v as Record<string, unknown>)[segment];
  }
  if (typeof v === "string") return v;
  if (typeof v === "boolean") return v ? "true" : "false";
  if (typeof v === "number" && Number.isInteger(v)) return String(v);
  return "";
}

/** The fields.Set of `object` for the given selectable paths (beyond name and namespace). */
export function fieldSetOf(object: unknown, selectablePaths: readonly string[]): Fields {
  const fields: Record<string, string> = {
    "metadata.name": readFieldPath(object, "metadata.name"),
    "metadata.namespace": readFieldPath(object, "metadata.namespace"),
  };
  for (const path of selectablePaths) fields[path] = readFieldPath(object, path);
  return fields;
}

/** The message core kinds' field label conversions answer with. */
export function fieldLabelNotSupported(label: string): string {
  return `field label not supported: ${label}`;
}

/** DefaultMetaV1FieldSelectorConversion's message, for kinds that register no conversion. */
export function notKnownFieldSelector(label: string): string {
  return `${goQuote(label)} is not a known field selector: only "metadata.name", "metadata.namespace"`;
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
