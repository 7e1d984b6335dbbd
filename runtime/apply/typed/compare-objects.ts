// What changed between two versions of an object, field by field (structured-merge-diff's
// TypedValue.Compare): leaves added, modified or removed, plus the list items, map entries and optional
// structs that appeared or went away as a whole. Objects are compared as kube sees them once decoded into
// Go: a non-pointer struct is there (`{}`) even when the JSON omits it, and a field without omitempty is
// there as null, so neither counts as added when it first gets content.

import { isJsonObject } from "../../object/json-object.js";
import { FieldSet } from "../fieldpath/field-set.js";
import { fieldElement, type Path, serializePathElement } from "../fieldpath/path-element.js";
import { valuesEqual } from "./json-value.js";
import { indexList } from "./list-items.js";
import { type ManagedSchema, type ResolvedType, resolveType, type SchemaType, zeroValue } from "./managed-schema.js";
import { entryType } from "./to-field-set.js";

export interface Comparison {
  readonly added: FieldSet;
  readonly modified: FieldSet;
  readonly removed: FieldSet;
}

function isEmptyOrNull(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (Array.isArray(value)) return value.length === 0;
  return isJsonObject(value) && Object.keys(value).length === 0;
}

function fits(type: ResolvedType, value: unknown): boolean {
  if (value === undefined || value === null || type.kind === "scalar") return true;
  return type.kind === "list" ? Array.isArray(value) : isJsonObject(value);
}

class Comparer {
  readonly added = new FieldSet();
  readonly modified = new FieldSet();
  readonly removed = new FieldSet();

  constructor(private readonly schema: ManagedSchema) {}

  private leaf(lhs: unknown, rhs: unknown, path: Path): void {
    if (lhs === undefined) this.added.insert(path);
    else if (rhs === undefined) this.removed.insert(path);
    else if (!valuesEqual(lhs, rhs)) this.modified.insert(path);
  }

  visit(type: SchemaType, lhs: unknown, rhs: unknown, path: Path): void {
    if (lhs === undefined && rhs === undefined) return;
    const left = resolveType(type, lhs === undefined ? rhs : lhs);
    const right = resolveType(type, rhs === undefined ? lhs : rhs);
    if (left.kind !== right.kind || !fits(left, lhs) || !fits(right, rhs)) {
      this.leaf(lhs, rhs, path);
      return;
    }
    if (left.kind === "scalar" || left.atomic || (isEmptyOrNull(lhs) && isEmptyOrNull(rhs))) {
      this.leaf(lhs, rhs, path);
      return;
    }
    if (left.kind === "list") this.visitList(left, lhs, rhs, path);
    else this.visitEntries(left, lhs, rhs, path);
    if (lhs === undefined) this.added.insert(path);
    else if (rhs === undefined) this.removed.insert(path);
  }

  private visitList(list: Extract<ResolvedType, { kind: "list" }>, lhs: unknown, rhs: unknown, path: Path): void {
    const left = indexList(this.schema, list, Array.isArray(lhs) ? lhs : []);
    const right = indexList(this.schema, list, Array.isArray(rhs) ? rhs : []);
    const seen = new Set<string>();
    for (const entry of [...left.order, ...right.order]) {
      const id = serializePathElement(entry.element);
      if (seen.has(id)) continue;
      seen.add(id);
      const l = left.byElement.get(id)?.items;
      const r = right.byElement.get(id)?.items;
      const itemPath = [...path, entry.element];
      // Duplicated items are compared together, as one value.
      if ((l?.length ?? 0) > 1 || (r?.length ?? 0) > 1) this.leaf(l, r, itemPath);
      else this.visit(list.element, l?.[0], r?.[0], itemPath);
    }
  }

  private visitEntries(
    container: Extract<ResolvedType, { kind: "struct" | "map" }>,
    lhs: unknown,
    rhs: unknown,
    path: Path,
  ): void {
    const left = isJsonObject(lhs) ? lhs : undefined;
    const right = isJsonObject(rhs) ? rhs : undefined;
    const names = new Set([...Object.keys(left ?? {}), ...Object.keys(right ?? {})]);
    for (const name of names) {
      const type = entryType(this.schema, container, name) ?? { kind: "deduced" };
      const zero = container.kind === "struct" ? zeroValue(this.schema, container, name) : undefined;
      const l = left === undefined ? undefined : Object.hasOwn(left, name) ? left[name] : zero;
      const r = right === undefined ? undefined : Object.hasOwn(right, name) ? right[name] : zero;
      this.visit(type, l, r, [...path, fieldElement(name)]);
    }
  }
}

/** Compares `lhs` (before; undefined for nothing) with `rhs` (after). */
export function compareObjects(schema: ManagedSchema, type: SchemaType, lhs: unknown, rhs: unknown): Comparison {
  const comparer = new Comparer(schema);
  comparer.visit(type, lhs, rhs, []);
  return { added: comparer.added, modified: comparer.modified, removed: comparer.removed };
}
