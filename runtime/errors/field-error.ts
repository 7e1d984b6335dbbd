// One problem with one field, as kube-apiserver's field.Error: the unit validators produce and the
// `causes` of an Invalid Status are made of.

export type FieldErrorType =
  | "FieldValueRequired"
  | "FieldValueInvalid"
  | "FieldValueNotSupported"
  | "FieldValueDuplicate"
  | "FieldValueTooLong"
  | "FieldValueTooMany"
  | "FieldValueForbidden"
  | "FieldValueTypeInvalid"
  | "FieldValueNotFound"
  | "InternalError";

export interface FieldError {
  type: FieldErrorType;
  /** Path as Kubernetes prints it: `spec.containers[0].name`, `metadata.labels[app]`. */
  field: string;
  badValue?: unknown;
  detail?: string;
}

import { goJson, goQuote } from "./go-format.js";

// Constructors mirroring apimachinery's field package, so every producer words errors the same way.

export function required(field: string, detail = ""): FieldError {
  return detail === "" ? { type: "FieldValueRequired", field } : { type: "FieldValueRequired", field, detail };
}

export function invalid(field: string, badValue: unknown, detail: string): FieldError {
  return { type: "FieldValueInvalid", field, badValue, detail };
}

export function typeInvalid(field: string, badValue: unknown, detail: string): FieldError {
  return { type: "FieldValueTypeInvalid", field, badValue, detail };
}

export function notSupported(field: string, badValue: unknown, allowed: readonly unknown[]): FieldError {
  if (allowed.length === 0) return { type: "FieldValueNotSupported", field, badValue };
  const quoted = allowed.map((v) => goQuote(typeof v === "string" ? v : goJson(v)));
  return { type: "FieldValueNotSupported", field, badValue, detail: `supported values: ${quoted.join(", ")}` };
}

export function duplicate(field: string, badValue: unknown): FieldError {
  return { type: "FieldValueDuplicate", field, badValue };
}

export function notFound(field: string, badValue: unknown): FieldError {
  return { type: "FieldValueNotFound", field, badValue };
}

export function forbidden(field: string, detail: string): FieldError {
  return { type: "FieldValueForbidden", field, detail };
}

/** The value itself is never printed: it is what was too long. */
export function tooLong(field: string, maxLength: number): FieldError {
  const detail =
    maxLength >= 0 ? `may not be more than ${maxLength} ${maxLength === 1 ? "byte" : "bytes"}` : "value is too long";
  return { type: "FieldValueTooLong", field, detail };
}

export function tooMany(field: string, actual: number, max: number): FieldError {
  const detail = max >= 0 ? `must have at most ${max} ${max === 1 ? "item" : "items"}` : "has too many items";
  return actual >= 0
    ? { type: "FieldValueTooMany", field, badValue: actual, detail }
    : { type: "FieldValueTooMany", field, detail };
}

export function internalError(field: string, message: string): FieldError {
  return { type: "InternalError", field, detail: message };
}
