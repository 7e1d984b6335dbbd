// Reading the review kinds' bodies as Go decodes them into typed structs (a value of another type, or
// null, reads as the zero value) and writing answers as Go encodes them (`omitempty` leaves zero values out).
import { asObject, type JsonObject, listItems } from "../validation/walk.js";

export function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

export function texts(value: unknown): string[] {
  return listItems(value).filter((v): v is string => typeof v === "string");
}

/** Go's zero value of a decoded field: what `omitempty` drops. */
export function isZero(value: unknown): boolean {
  if (value === null || value === undefined || value === "" || value === 0 || value === false) return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === "object" && Object.keys(value).length === 0;
}

/** A string field as `omitempty` writes it. */
export function omitEmpty(name: string, value: string): JsonObject {
  return value === "" ? {} : { [name]: value };
}

/** ObjectMeta as it is sent back: every field of it is left out when unset (a null creationTimestamp). */
export function encodedMetadata(value: unknown): JsonObject {
  return Object.fromEntries(Object.entries(asObject(value) ?? {}).filter(([, v]) => !isZero(v)));
}
