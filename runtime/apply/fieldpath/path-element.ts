// One step of a field path, as structured-merge-diff's fieldpath.PathElement: a struct field or map key by
// name, a list-map item by its key fields, a set item by its value, or an atomic list item by index. The
// order (fields, then keys, then values, then indices) is the order FieldsV1 lists them in, and the text
// form (`f:name`, `k:{"name":"x"}`, `v:"a"`, `i:0`) is the key FieldsV1 writes for each.

import { goJson } from "../../errors/go-format.js";
import { isJsonObject } from "../../object/json-object.js";
import { compareGoStrings } from "../../selection/go-strings.js";
import { compareValues } from "../typed/json-value.js";

export interface KeyField {
  readonly name: string;
  readonly value: unknown;
}

export type PathElement =
  | { readonly field: string }
  | { readonly key: readonly KeyField[] }
  | { readonly value: unknown }
  | { readonly index: number };

export type Path = readonly PathElement[];

export function fieldElement(name: string): PathElement {
  return { field: name };
}

/** Key fields are kept sorted by name, as fieldpath.KeyByFields sorts them. */
export function keyElement(fields: readonly KeyField[]): PathElement {
  return { key: [...fields].sort((a, b) => compareGoStrings(a.name, b.name)) };
}

export function valueElement(value: unknown): PathElement {
  return { value };
}

export function indexElement(index: number): PathElement {
  return { index };
}

function rank(pe: PathElement): number {
  if ("field" in pe) return 0;
  if ("key" in pe) return 1;
  if ("value" in pe) return 2;
  return 3;
}

function compareKeys(a: readonly KeyField[], b: readonly KeyField[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i] as KeyField;
    const y = b[i] as KeyField;
    const name = compareGoStrings(x.name, y.name);
    if (name !== 0) return name;
    const value = compareValues(x.value, y.value);
    if (value !== 0) return value;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

export function comparePathElements(a: PathElement, b: PathElement): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  if ("field" in a && "field" in b) return compareGoStrings(a.field, b.field);
  if ("key" in a && "key" in b) return compareKeys(a.key, b.key);
  if ("value" in a && "value" in b) return compareValues(a.value, b.value);
  const x = (a as { index: number }).index;
  const y = (b as { index: number }).index;
  return x < y ? -1 : x > y ? 1 : 0;
}

export function pathElementsEqual(a: PathElement, b: PathElement): boolean {
  return comparePathElements(a, b) === 0;
}

/** The FieldsV1 key of an element; values are JSON as Go's encoder writes them. */
export function serializePathElement(pe: PathElement): string {
  if ("field" in pe) return `f:${pe.field}`;
  if ("key" in pe) return `k:{${pe.key.map((f) => `${goJson(f.name)}:${goJson(f.value)}`).join(",")}}`;
  if ("value" in pe) return `v:${goJson(pe.value)}`;
  return `i:${pe.index}`;
}

/**
 * The element a FieldsV1 key names; undefined for a kind of key this version does not know (dropped, as
 * structured-merge-diff drops them). Throws on a malformed key.
 */
export function parsePathElement(text: string): PathElement | undefined {
  if (text.length < 2) throw new Error("key must be 2 characters long:");
  if (text[1] !== ":") throw new Error(`missing colon: ${text}`);
  const body = text.slice(2);
  switch (text[0]) {
    case "f":
      return fieldElement(body);
    case "v":
      return valueElement(JSON.parse(body));
    case "k": {
      const fields = JSON.parse(body) as unknown;
      if (!isJsonObject(fields)) throw new Error(`key ${text} is not a JSON object`);
      return keyElement(Object.entries(fields).map(([name, value]) => ({ name, value })));
    }
    case "i": {
      if (!/^[+-]?\d+$/.test(body)) throw new Error(`strconv.Atoi: parsing ${JSON.stringify(body)}: invalid syntax`);
      return indexElement(Number.parseInt(body, 10));
    }
    default:
      return undefined;
  }
}
