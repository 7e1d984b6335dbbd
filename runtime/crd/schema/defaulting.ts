// Structural defaulting of a custom resource, as the apiextensions server applies schema defaults on
// every write and read: an absent field with a default gets a copy of it, and so does a null one whose
// schema is not nullable; null list items and map values of a non-nullable schema take the schema's
// default (or stay null without one). Defaults are applied top-down, so a defaulted object is itself
// defaulted below. Each place gets its own copy of a default, copied without recursing: a default nests as
// deep as the CRD's JSON may.

import { cloneJson } from "../../codecs/json-tree.js";
import { isJsonObject } from "../../object/json-object.js";
import type { SchemaNode } from "./schema-node.js";

function nonNullableNull(value: unknown, schema: SchemaNode): boolean {
  return value === null && !schema.nullable;
}

/** Applies the defaults of `s` to `x` in place. */
export function applyDefaults(x: unknown, s: SchemaNode | null | undefined): void {
  if (!s) return;
  if (Array.isArray(x)) {
    const items = s.items;
    if (items === undefined) return;
    for (let i = 0; i < x.length; i++) {
      if (nonNullableNull(x[i], items)) x[i] = cloneJson(items.default ?? null);
      if (items.hasDefault || items.defaultsBelow) applyDefaults(x[i], items);
    }
    return;
  }
  if (!isJsonObject(x)) return;
  for (const [name, prop] of s.defaulted) {
    if (!Object.hasOwn(x, name) || nonNullableNull(x[name], prop)) x[name] = cloneJson(prop.default);
  }
  if (!s.defaultsBelow) return;
  const additional = s.additionalProperties;
  for (const key of Object.keys(x)) {
    const prop = s.properties.get(key);
    if (prop !== undefined) applyDefaults(x[key], prop);
    else if (additional) {
      if (nonNullableNull(x[key], additional)) x[key] = cloneJson(additional.default ?? null);
      applyDefaults(x[key], additional);
    }
  }
}
