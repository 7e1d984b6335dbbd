// A value without the fields, list items and map entries of a set (structured-merge-diff's
// TypedValue.RemoveItems): a member of the set goes with everything under it, a path that only passes
// through is descended into. A struct, map or list left empty by the removal goes too, as the typed
// conversion that follows in kube drops it.

import { isJsonObject } from "../../object/json-object.js";
import type { FieldSet } from "../fieldpath/field-set.js";
import { fieldElement } from "../fieldpath/path-element.js";
import { listItemElement } from "./list-items.js";
import { type ManagedSchema, resolveType, type SchemaType } from "./managed-schema.js";
import { entryType } from "./to-field-set.js";

/** `value` without the paths in `toRemove`; undefined when nothing is left. Does not change `value`. */
export function removeItems(schema: ManagedSchema, type: SchemaType, value: unknown, toRemove: FieldSet): unknown {
  const resolved = resolveType(type, value);
  if (resolved.kind === "scalar" || resolved.atomic || toRemove.isEmpty()) return value;
  if (resolved.kind === "list") {
    if (!Array.isArray(value) || value.length === 0) return value;
    const out: unknown[] = [];
    value.forEach((item, index) => {
      const pe = listItemElement(schema, resolved, index, item);
      if (typeof pe === "string") {
        out.push(item);
        return;
      }
      if (toRemove.hasMember(pe)) return;
      const kept = removeItems(schema, resolved.element, item, toRemove.withPrefix(pe));
      if (kept !== undefined) out.push(kept);
    });
    return out.length > 0 ? out : undefined;
  }
  if (!isJsonObject(value) || Object.keys(value).length === 0) return value;
  const out: Record<string, unknown> = {};
  for (const [name, child] of Object.entries(value)) {
    const pe = fieldElement(name);
    if (toRemove.hasMember(pe)) continue;
    const kept = removeItems(
      schema,
      entryType(schema, resolved, name) ?? { kind: "deduced" },
      child,
      toRemove.withPrefix(pe),
    );
    if (kept !== undefined) out[name] = kept;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
