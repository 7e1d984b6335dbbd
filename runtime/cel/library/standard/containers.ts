// Containers: size(), indexing (`list[i]` with int, uint or integral double indexes; `map[k]` with
// numeric keys matching across int, uint and double), `in`, and list concatenation. Lists decoded from
// Kubernetes objects with `x-kubernetes-list-type: set` concatenate as a union and those with `map` as
// a merge by their keys, as Kubernetes' unstructured lists do.

import {
  BoolType,
  BytesType,
  IntType,
  listType,
  mapType,
  StringType,
  typeName,
  typeParam,
} from "../../common/cel-types.js";
import type { FunctionDecl, OverloadImpl } from "../../common/decls.js";
import { celEquals } from "../../common/equality.js";
import {
  ArrayList,
  CelError,
  CelList,
  CelMap,
  CelObject,
  CelUint,
  type CelValue,
  INT64_MAX,
  mapKeyOf,
  typeOfValue,
} from "../../common/values.js";
import { declareFunction, generic, globalOverload, memberOverload } from "./declare.js";
import { formatDouble } from "./number-text.js";
import { noSuchOverload } from "./overload-errors.js";
import { inListCost } from "./standard-cost.js";
import { codePointLength } from "./text.js";

const A = typeParam("A");
const B = typeParam("B");

const size: OverloadImpl = (args) => {
  const v = args[0];
  if (typeof v === "string") return BigInt(codePointLength(v));
  if (v instanceof Uint8Array || v instanceof CelList || v instanceof CelMap) {
    return BigInt(v instanceof Uint8Array ? v.length : v.size);
  }
  return noSuchOverload();
};

/** A value as Go's %v prints it in cel-go's lookup errors (`no such key: x`, `index out of bounds: 3`). */
function describe(v: CelValue): string {
  if (typeof v === "number") return formatDouble(v);
  if (v instanceof CelUint) return String(v.value);
  if (typeof v === "string" || typeof v === "bigint" || typeof v === "boolean") return String(v);
  return typeName(typeOfValue(v));
}

/** A list index as cel-go's IndexOrError accepts it: an int, or a uint or double that is an exact int64. */
function listIndex(index: CelValue): number | CelError {
  if (typeof index === "bigint") return index < 0n || index > INT64_MAX ? -1 : Number(index);
  if (index instanceof CelUint) {
    return index.value > INT64_MAX
      ? new CelError(`unsupported index value ${index.value} in list`)
      : Number(index.value);
  }
  if (typeof index === "number") {
    if (Number.isInteger(index) && Math.abs(index) < 2 ** 63) return index < 0 ? -1 : index;
    return new CelError(`unsupported index value ${formatDouble(index)} in list`);
  }
  return new CelError(`unsupported index type '${typeName(typeOfValue(index))}' in list`);
}

const index: OverloadImpl = (args) => {
  const container = args[0];
  const key = args[1] as CelValue;
  if (container instanceof CelList) {
    const i = listIndex(key);
    if (i instanceof CelError) return i;
    return i >= 0 && i < container.size ? container.get(i) : new CelError(`index out of bounds: ${describe(key)}`);
  }
  if (container instanceof CelMap) {
    return container.get(key) ?? new CelError(`no such key: ${describe(key)}`);
  }
  return noSuchOverload();
};

const contains: OverloadImpl = (args) => {
  const element = args[0] as CelValue;
  const container = args[1];
  if (container instanceof CelMap) return container.has(element);
  if (!(container instanceof CelList)) return noSuchOverload();
  const items = container instanceof ArrayList ? container.items : container.toArray();
  for (const item of items) if (celEquals(item, element)) return true;
  return false;
};

/** `a + b` on lists; the left operand's Kubernetes list type decides between append, union and merge. */
export function concatLists(a: CelList, b: CelList): CelList {
  let items: CelValue[];
  if (a.listType === "set") items = union(a, b);
  else if (a.listType === "map" && a.mapKeys !== undefined) items = merge(a, b, a.mapKeys);
  else return new ArrayList([...a.toArray(), ...b.toArray()]);
  const out = new ArrayList(items);
  out.listType = a.listType;
  if (a.mapKeys !== undefined) out.mapKeys = a.mapKeys;
  out.elemType = a.elemType;
  return out;
}

/** Set lists: the elements of `a` in place, then those of `b` not yet present, in order. */
function union(a: CelList, b: CelList): CelValue[] {
  const items = a.toArray();
  const seen = new Set<string>();
  for (const item of items) {
    const key = mapKeyOf(item);
    if (key !== undefined) seen.add(key);
  }
  for (const item of b) {
    const key = mapKeyOf(item);
    const present = key !== undefined ? seen.has(key) : items.some((x) => celEquals(x, item));
    if (present) continue;
    if (key !== undefined) seen.add(key);
    items.push(item);
  }
  return items;
}

/** Map lists: elements of `b` replace those of `a` with the same keys in place; the others are appended. */
function merge(a: CelList, b: CelList, keys: readonly string[]): CelValue[] {
  const items = a.toArray();
  const positions = new Map<string, number>();
  items.forEach((item, i) => {
    positions.set(entryKey(item, keys), i);
  });
  for (const item of b) {
    const key = entryKey(item, keys);
    const at = positions.get(key);
    if (at !== undefined) items[at] = item;
    else {
      positions.set(key, items.length);
      items.push(item);
    }
  }
  return items;
}

function entryKey(item: CelValue, keys: readonly string[]): string {
  const parts: string[] = [];
  for (const k of keys) {
    const v = item instanceof CelObject ? item.get(k) : item instanceof CelMap ? item.get(k) : undefined;
    parts.push(v === undefined ? "" : (mapKeyOf(v) ?? describe(v)));
  }
  return parts.join("\u0000");
}

export const containerFunctions: readonly FunctionDecl[] = [
  declareFunction(
    "size",
    globalOverload("size_bytes", [BytesType], IntType, size),
    memberOverload("bytes_size", [BytesType], IntType, size),
    generic(["A"], globalOverload("size_list", [listType(A)], IntType, size)),
    generic(["A"], memberOverload("list_size", [listType(A)], IntType, size)),
    generic(["A", "B"], globalOverload("size_map", [mapType(A, B)], IntType, size)),
    generic(["A", "B"], memberOverload("map_size", [mapType(A, B)], IntType, size)),
    globalOverload("size_string", [StringType], IntType, size),
    memberOverload("string_size", [StringType], IntType, size),
  ),
  declareFunction(
    "_[_]",
    generic(["A"], globalOverload("index_list", [listType(A), IntType], A, index)),
    generic(["A", "B"], globalOverload("index_map", [mapType(A, B), A], B, index)),
  ),
  declareFunction(
    "@in",
    generic(["A"], globalOverload("in_list", [A, listType(A)], BoolType, contains, inListCost)),
    generic(["A", "B"], globalOverload("in_map", [A, mapType(A, B)], BoolType, contains)),
  ),
];
