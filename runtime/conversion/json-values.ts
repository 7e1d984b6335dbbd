// Building blocks of generated conversion functions. Objects are plain decoded JSON: conversions work on them
// before any typed view exists, and never share structure with their input so callers may mutate either side.

import { isJsonObject, type JsonObject } from "../object/json-object.js";

export { isJsonObject, type JsonObject };

/** Converts one object of a definition from one version to another; never mutates `src`. */
export type ConvertFn = (src: JsonObject) => JsonObject;

/** A nested object of a convertible definition; null (and anything validation let through) is copied as is. */
export function convertObject(value: unknown, convert: ConvertFn): unknown {
  return isJsonObject(value) ? convert(value) : structuredClone(value);
}

export function convertList(value: unknown, convertItem: (item: unknown) => unknown): unknown {
  return Array.isArray(value) ? value.map(convertItem) : structuredClone(value);
}

/** A map (`additionalProperties`) whose values need converting. */
export function convertMap(value: unknown, convertValue: (item: unknown) => unknown): unknown {
  if (!isJsonObject(value)) return structuredClone(value);
  const out: JsonObject = {};
  for (const [key, item] of Object.entries(value)) out[key] = convertValue(item);
  return out;
}
