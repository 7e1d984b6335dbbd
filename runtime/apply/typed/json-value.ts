// Decoded JSON values as structured-merge-diff's value package sees them: a total order across types (list
// map keys and set elements are sorted by it; strings in Go's byte order), equality where 1 and 1.0 are the
// same number, and the text conflict paths print a value with (value.ToString).

import { goNumber, goQuote } from "../../errors/go-format.js";
import { isJsonObject, type JsonObject } from "../../object/json-object.js";
import { compareGoStrings } from "../../selection/go-strings.js";

/** Rank of a value's type in the order: numbers, strings, booleans, lists, maps, then null. */
function typeRank(value: unknown): number {
  if (typeof value === "number") return 0;
  if (typeof value === "string") return 1;
  if (typeof value === "boolean") return 2;
  if (Array.isArray(value)) return 3;
  if (isJsonObject(value)) return 4;
  return 5;
}

function sortedKeys(value: JsonObject): string[] {
  return Object.keys(value).sort(compareGoStrings);
}

/** value.Compare: negative, zero or positive; numbers compared numerically whatever their JSON spelling. */
export function compareValues(a: unknown, b: unknown): number {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  if (typeof a === "number" && typeof b === "number") return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === "string" && typeof b === "string") return compareGoStrings(a, b);
  if (typeof a === "boolean" && typeof b === "boolean") return a === b ? 0 : a ? 1 : -1;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const c = compareValues(a[i], b[i]);
      if (c !== 0) return c;
    }
    return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
  }
  if (isJsonObject(a) && isJsonObject(b)) {
    const ka = sortedKeys(a);
    const kb = sortedKeys(b);
    for (let i = 0; i < Math.min(ka.length, kb.length); i++) {
      const name = compareGoStrings(ka[i] as string, kb[i] as string);
      if (name !== 0) return name;
      const c = compareValues(a[ka[i] as string], b[kb[i] as string]);
      if (c !== 0) return c;
    }
    return ka.length < kb.length ? -1 : ka.length > kb.length ? 1 : 0;
  }
  return 0;
}

export function valuesEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => valuesEqual(x, b[i]));
  if (isJsonObject(a) && isJsonObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => k in b && valuesEqual(a[k], b[k]));
  }
  return false;
}

/** value.ToString: strings quoted as Go's %q, lists `[a,b]`, maps `k=v` pairs run together. */
export function valueText(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "number") return goNumber(value);
  if (typeof value === "string") return goQuote(value);
  if (typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return `[${value.map(valueText).join(",")}]`;
  const object = value as JsonObject;
  return sortedKeys(object)
    .map((k) => `${k}=${valueText(object[k])}`)
    .join("");
}
