// An applied configuration merged into the live object (structured-merge-diff's TypedValue.Merge): the
// configuration's value wins for every leaf it sets (scalars, atomic lists, maps and structs); list items
// and map entries merge by key, so nothing the configuration omits is removed here. List items keep the
// live order, except that items the configuration names come in its order, new ones where it puts them.
// A field the configuration sets to null is dropped from a struct, as decoding into Go drops it, unless the
// struct keeps it as one of its undeclared fields (those stay null, as in a map).
import { isJsonObject } from "../../object/json-object.js";
import { type PathElement, pathElementsEqual, serializePathElement } from "../fieldpath/path-element.js";
import { type IndexedItem, indexList } from "./list-items.js";
import {
  declaresField,
  type ManagedSchema,
  type ResolvedType,
  resolveType,
  type SchemaType,
} from "./managed-schema.js";
import { entryType } from "./to-field-set.js";

function isEmptyOrNull(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (Array.isArray(value)) return value.length === 0;
  return isJsonObject(value) && Object.keys(value).length === 0;
}

class Merger {
  constructor(private readonly schema: ManagedSchema) {}

  merge(type: SchemaType, lhs: unknown, rhs: unknown): unknown {
    if (rhs === undefined) return lhs;
    if (lhs === undefined) return this.mergeNew(type, rhs);
    const left = resolveType(type, lhs);
    const right = resolveType(type, rhs);
    if (
      left.kind !== right.kind ||
      left.kind === "scalar" ||
      left.atomic ||
      (isEmptyOrNull(lhs) && isEmptyOrNull(rhs))
    ) {
      return rhs;
    }
    if (left.kind === "list") {
      if (!Array.isArray(rhs)) return Array.isArray(lhs) ? lhs : rhs;
      return this.mergeList(left, Array.isArray(lhs) ? lhs : [], rhs);
    }
    if (!isJsonObject(rhs)) return isJsonObject(lhs) ? lhs : rhs;
    return this.mergeEntries(left, isJsonObject(lhs) ? lhs : {}, rhs);
  }

  /** A value only the configuration has: copied, minus the nulls in its structs. */
  private mergeNew(type: SchemaType, rhs: unknown): unknown {
    const resolved = resolveType(type, rhs);
    if (resolved.kind === "struct" && isJsonObject(rhs)) return this.mergeEntries(resolved, {}, rhs);
    return rhs;
  }

  private mergeList(list: Extract<ResolvedType, { kind: "list" }>, lhs: unknown[], rhs: unknown[]): unknown[] {
    const left = indexList(this.schema, list, lhs);
    const right = indexList(this.schema, list, rhs);
    const out: unknown[] = [];
    const emit = (element: PathElement): void => {
      const id = serializePathElement(element);
      const l = left.byElement.get(id)?.items;
      const r = right.byElement.get(id)?.items;
      // The configuration replaces every copy of a duplicated item; copies it does not name stay.
      if (r === undefined) for (const item of l ?? []) out.push(item);
      else if ((l?.length ?? 0) > 1) for (const item of r) out.push(item);
      else out.push(this.merge(list.element, l?.[0], r[0]));
    };
    const inRight = (entry: IndexedItem): boolean => right.byElement.has(serializePathElement(entry.element));
    const shared = right.order.filter((e) => left.byElement.has(serializePathElement(e.element)));
    let nextShared = 0;
    let i = 0;
    let j = 0;
    while (i < left.order.length || j < right.order.length) {
      const l = left.order[i];
      const r = right.order[j];
      if (l !== undefined && r !== undefined) {
        if (pathElementsEqual(l.element, r.element)) {
          emit(l.element);
          i++;
          j++;
          nextShared++;
          continue;
        }
        const want = shared[nextShared];
        if (inRight(l) && want !== undefined && !pathElementsEqual(want.element, l.element)) {
          // A shared item the configuration places later; it is emitted when the configuration reaches it.
          i++;
          continue;
        }
      }
      if (l !== undefined && !inRight(l)) {
        emit(l.element);
        i++;
        continue;
      }
      if (r === undefined) {
        // Every configuration item is out, this shared one with them.
        i++;
        continue;
      }
      emit(r.element);
      j++;
      const want = shared[nextShared];
      if (want !== undefined && pathElementsEqual(want.element, r.element)) nextShared++;
    }
    return out;
  }

  private mergeEntries(
    container: Extract<ResolvedType, { kind: "struct" | "map" }>,
    lhs: Record<string, unknown>,
    rhs: Record<string, unknown>,
  ): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const names = [...Object.keys(lhs), ...Object.keys(rhs).filter((k) => !Object.hasOwn(lhs, k))];
    for (const name of names) {
      const type = entryType(this.schema, container, name);
      const value = this.merge(
        type ?? { kind: "deduced" },
        Object.hasOwn(lhs, name) ? lhs[name] : undefined,
        rhs[name],
      );
      if (value === undefined) continue;
      const dropsNull =
        container.kind === "struct" && (type === undefined || declaresField(this.schema, container, name));
      if (value === null && dropsNull) continue;
      out[name] = value;
    }
    return out;
  }
}

/** `live` with `config` applied; neither is changed. */
export function mergeObjects(schema: ManagedSchema, type: SchemaType, live: unknown, config: unknown): unknown {
  return new Merger(schema).merge(type, live, config);
}
