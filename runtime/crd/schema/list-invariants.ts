// The uniqueness x-kubernetes-list-type asks of a custom resource's lists, as the apiextensions server's
// ValidateListSetsAndMaps checks it: a set's items, a map list's key tuples. The second appearance of a
// value is reported once (`spec.ports[1]: Duplicate value: {"name":"a"}`); a map list item that is not an
// object stops the check of that list.

import { duplicate, type FieldError, invalid } from "../../errors/field-error.js";
import { child, index, key } from "../../errors/field-path.js";
import { goJson } from "../../errors/go-format.js";
import { isJsonObject } from "../../object/json-object.js";
import type { SchemaNode } from "./schema-node.js";

/** Indices of the second appearance of each repeated value. */
function secondAppearances(values: readonly unknown[]): number[] {
  const seen = new Map<string, number>();
  const out: number[] = [];
  values.forEach((v, i) => {
    const id = goJson(v);
    const times = seen.get(id) ?? 0;
    if (times === 1) out.push(i);
    seen.set(id, times + 1);
  });
  return out;
}

function mapListErrors(items: readonly unknown[], keys: readonly string[], path: string): FieldError[] {
  const notObject = items.findIndex((x) => x !== null && !isJsonObject(x));
  if (notObject >= 0) {
    return [invalid(index(path, notObject), items[notObject], "must be an object for an array of list-type map")];
  }
  const tuples = items.map((x) => {
    const tuple: Record<string, unknown> = {};
    for (const k of keys) if (isJsonObject(x) && Object.hasOwn(x, k)) tuple[k] = x[k];
    return tuple;
  });
  return secondAppearances(tuples).map((i) => duplicate(index(path, i), tuples[i]));
}

function listErrors(items: readonly unknown[], s: SchemaNode, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (s.listType === "set") {
    for (const i of secondAppearances(items)) errs.push(duplicate(index(path, i), items[i]));
  } else if (s.listType === "map") {
    errs.push(...mapListErrors(items, s.listMapKeys, path));
  }
  const itemSchema = s.items;
  if (itemSchema?.listInvariantsBelow) {
    items.forEach((item, i) => {
      errs.push(...listInvariantErrors(item, itemSchema, index(path, i)));
    });
  }
  return errs;
}

/** The list-type violations in `x` against `s`. */
export function listInvariantErrors(x: unknown, s: SchemaNode, path = ""): FieldError[] {
  if (!s.listInvariantsBelow) return [];
  if (Array.isArray(x)) return listErrors(x, s, path);
  if (!isJsonObject(x)) return [];
  const errs: FieldError[] = [];
  const additional = s.additionalProperties;
  if (additional)
    for (const [k, v] of Object.entries(x)) errs.push(...listInvariantErrors(v, additional, key(path, k)));
  for (const [k, v] of Object.entries(x)) {
    const prop = s.properties.get(k);
    if (prop !== undefined) errs.push(...listInvariantErrors(v, prop, child(path, k)));
  }
  return errs;
}
