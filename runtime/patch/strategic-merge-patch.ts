// Strategic merge patch (`application/strategic-merge-patch+json`) as kube-apiserver v1.36 applies it
// (k8s.io/apimachinery/pkg/util/strategicpatch StrategicMergeMapPatch with the Go struct of the kind as
// schema), ported step for step because clients see its exact result order and error texts: kubectl's
// client-side apply sends three-way patches with `$setElementOrder`, `$deleteFromPrimitiveList` and
// `$retainKeys` directives and relies on kube's ordering of merged lists.
//
// The Go struct is played by the field table: a property's `x-kubernetes-patch-strategy` and merge key
// are the struct tags kube reads, a table definition is a struct, `{map}` a Go map, `{list}` a slice.
// Opaque values (`any`: RawExtension and the like) are structs without JSON fields, as in Go, so their
// keys merge one level deep and an object or list on both sides is refused as kube refuses it.
//
// Where kube searches a list once per item, kapi looks items up in an index built once per list, and
// values taken whole are walked with their own stack, so that neither long lists nor deep values cost
// more than the body's size allows.
import type { FieldDefinition, FieldNode, FieldTable } from "../codecs/field-table.js";
import { cloneJson } from "../codecs/json-tree.js";
import { maxObjectDepth, storedObjectTooDeep } from "../codecs/object-depth.js";
import { goQuote } from "../errors/go-format.js";
import { badRequest, StatusError } from "../errors/status-error.js";
import { isJsonObject, type JsonObject } from "../object/json-object.js";
import { goMapType, goS, goSliceType, goTypeOf, goV } from "./go-print.js";

const directiveMarker = "$patch";
const retainKeysDirective = "$retainKeys";
const deleteFromPrimitiveListPrefix = "$deleteFromPrimitiveList";
const setElementOrderPrefix = "$setElementOrder";

// --- How kube-apiserver answers the errors (interpretStrategicMergePatchError and ErrorToAPIStatus) ---

/** The mergepatch sentinel errors kube maps to 400 BadRequest. */
const badPatchFormat = {
  primitiveList: () => badRequest("invalid patch format of primitive list"),
  retainKeys: () => badRequest("invalid patch format of retainKeys"),
  setElementOrder: () => badRequest("invalid patch format of setElementOrder list"),
};

/** mergepatch.ErrNoListOfLists: NewGenericServerResponse(422), whose message hides the cause's text. */
function listsOfLists(): StatusError {
  return new StatusError(422, "Invalid", "the server rejected our request due to an error in our request", {
    causes: [{ reason: "UnexpectedServerResponse", message: "lists of lists are not supported" }],
  });
}

/**
 * Any other error of the patch code. kube passes these through unwrapped and answers 500 with the Go
 * error's text; they are all the client's patch at fault, so kapi answers 400 BadRequest with that text.
 */
function patchFailure(message: string): StatusError {
  return badRequest(message);
}

/** Inputs for which kube's patch code panics (nil element types, unhashable or uncomparable values). */
function panicked(): StatusError {
  return badRequest("the strategic merge patch cannot be applied to this object");
}

/** mergepatch.ErrBadArgType: `expected a []interface {}, but received a string`. */
function badArgType(expected: string, actual: unknown): StatusError {
  const received = actual === null || actual === undefined ? "%!s(<nil>)" : goTypeOf(actual);
  return patchFailure(`expected a ${expected}, but received a ${received}`);
}

/** mergepatch.ErrNoMergeKey. */
function noMergeKey(m: JsonObject, mergeKey: string): StatusError {
  return patchFailure(`map: ${goV(m)} does not contain declared merge key: ${mergeKey}`);
}

/** mergepatch.ErrBadPatchType. */
function badPatchType(directive: unknown, m: JsonObject): StatusError {
  return patchFailure(`unknown patch type: ${goS(directive)} in map: ${goV(m)}`);
}

// --- Go value semantics the algorithm depends on ---

/** Go's `==` on two interface{} values: different types differ; two maps or two slices panic. */
function goEqual(a: unknown, b: unknown): boolean {
  const type = goTypeOf(a);
  if (type !== goTypeOf(b)) return false;
  if (type === goMapType || type === goSliceType) throw panicked();
  return type === "nil" || a === b;
}

/** A Go map key for a value: maps and slices are unhashable and panic. */
function hashKey(v: unknown): string {
  const type = goTypeOf(v);
  if (type === goMapType || type === goSliceType) throw panicked();
  return `${type}:${String(v)}`;
}

function has(m: JsonObject, key: string): boolean {
  return Object.hasOwn(m, key);
}

/** Assignment that also stores a key named `__proto__` as data. */
function put(m: JsonObject, key: string, value: unknown): void {
  Object.defineProperty(m, key, { value, writable: true, enumerable: true, configurable: true });
}

/** A key a list item is searched by, or undefined for an item the search passes over. */
type ItemKey = (item: unknown) => { key: unknown } | undefined;

/**
 * Where a front-to-back search of a list stops for each key value, comparing with Go's `==`, built once so
 * that long lists are not searched again for every item: the first position of each hashable key value,
 * and the first item whose key is a map or a list, where comparing another map or list with it panics.
 */
class KeyIndex {
  private readonly first = new Map<string, number>();
  private readonly firstUnhashable = new Map<string, number>();
  size = 0;

  constructor(
    items: readonly unknown[],
    private readonly keyOf: ItemKey,
  ) {
    for (const item of items) this.push(item);
  }

  push(item: unknown): void {
    const position = this.size++;
    const found = this.keyOf(item);
    if (found === undefined) return;
    const type = goTypeOf(found.key);
    const positions = type === goMapType || type === goSliceType ? this.firstUnhashable : this.first;
    const key = positions === this.first ? hashKey(found.key) : type;
    if (!positions.has(key)) positions.set(key, position);
  }

  /** Where the search for `wanted` stops: the first equal key, or the first comparison that panics. */
  stop(wanted: unknown): { position: number; panics: boolean } | undefined {
    const type = goTypeOf(wanted);
    if (type === goMapType || type === goSliceType) {
      const position = this.firstUnhashable.get(type);
      return position === undefined ? undefined : { position, panics: true };
    }
    const position = this.first.get(hashKey(wanted));
    return position === undefined ? undefined : { position, panics: false };
  }

  /** The position of the first item whose key equals `wanted`, or -1. */
  find(wanted: unknown): number {
    const stop = this.stop(wanted);
    if (stop?.panics) throw panicked();
    return stop?.position ?? -1;
  }
}

/**
 * findMapInSliceBasedOnKeyValue over an index: the first map holding the merge key value; an item that is
 * not a map, met before it, is refused.
 */
class MergeKeyIndex {
  private readonly index: KeyIndex;
  private firstNonMap = -1;

  constructor(items: readonly unknown[], mergeKey: string) {
    this.index = new KeyIndex([], (item) =>
      isJsonObject(item) && has(item, mergeKey) ? { key: item[mergeKey] } : undefined,
    );
    for (const item of items) this.push(item);
  }

  push(item: unknown): void {
    if (this.firstNonMap < 0 && !isJsonObject(item)) this.firstNonMap = this.index.size;
    this.index.push(item);
  }

  find(value: unknown): number {
    const stop = this.index.stop(value);
    if (this.firstNonMap >= 0 && (stop === undefined || this.firstNonMap < stop.position)) {
      throw patchFailure(`value for key ${this.firstNonMap} is not a map.`);
    }
    if (stop?.panics) throw panicked();
    return stop?.position ?? -1;
  }
}

/**
 * A Go slice over a backing array. Kube deletes list items by shifting them in place and appends into
 * the freed slots, and its ordering step later reads the live list through the same array, so those
 * in-place effects decide where server-only items land. The backing's length stands for the capacity.
 */
class GoSlice {
  /** `grown`: the backing is one an append allocated, which no other list shares. */
  constructor(
    readonly backing: unknown[],
    readonly length: number,
    private readonly grown = false,
  ) {}

  static of(items: unknown[]): GoSlice {
    return new GoSlice(items, items.length);
  }

  items(): unknown[] {
    return this.backing.slice(0, this.length);
  }

  /** Go's append: into the backing while it has room, else into a new one, which later appends extend. */
  append(v: unknown): GoSlice {
    if (this.length < this.backing.length) {
      this.backing[this.length] = v;
      return new GoSlice(this.backing, this.length + 1, this.grown);
    }
    const backing = this.grown ? this.backing : this.items();
    backing.push(v);
    return new GoSlice(backing, this.length + 1, true);
  }

  removeAt(i: number): GoSlice {
    this.backing.copyWithin(i, i + 1, this.length);
    return new GoSlice(this.backing, this.length - 1);
  }
}

// --- The schema: PatchMetaFromStruct over the field table ---

/** A field node, or the element of a []byte. */
type GoNode = FieldNode | "uint8";

interface PatchMeta {
  schema: Schema;
  strategies: string[];
  mergeKey: string;
}

/** Case-insensitive JSON name matching as Go's decoder folds ASCII names (ſ folds to s, K to k). */
function foldName(s: string): string {
  return s
    .replace(/\u017f/g, "s")
    .replace(/\u212a/g, "k")
    .replace(/[A-Z]/g, (c) => c.toLowerCase());
}

class Schema {
  /** `depth`: how many containers deep the value this schema describes lies in the object, the root being 1. */
  constructor(
    private readonly table: FieldTable,
    readonly node: GoNode,
    readonly depth = 1,
  ) {}

  /** reflect.Kind of the Go type. */
  kind(): string {
    const n = this.node;
    if (typeof n === "number" || n === "any" || n === "int-or-string" || n === "quantity") return "struct";
    if (n === "bytes") return "slice";
    if (typeof n === "string") return n;
    return "list" in n ? "slice" : "map";
  }

  /** The Go struct behind the node; opaque values are structs without JSON fields. */
  private struct(): { name: string; def?: FieldDefinition } {
    const n = this.node;
    if (typeof n === "number") {
      const def = this.table.definitions[n];
      if (def === undefined) throw new Error(`field table has no definition ${n}`);
      return { name: def.name, def };
    }
    if (n === "int-or-string") return { name: "IntOrString" };
    if (n === "quantity") return { name: "Quantity" };
    return { name: "RawExtension" };
  }

  /** LookupPatchMetadataForStruct: the field's type and its patch tags. */
  lookupForStruct(key: string): PatchMeta {
    if (this.kind() !== "struct") {
      throw patchFailure(`merging an object in json but data type is not struct, instead is: ${this.kind()}`);
    }
    const { name, def } = this.struct();
    const fields = def?.fields ?? {};
    const field = has(fields, key) ? key : Object.keys(fields).find((f) => foldName(f) === foldName(key));
    if (def === undefined || field === undefined) {
      throw patchFailure(`unable to find api field in struct ${name} for the json field ${goQuote(key)}`);
    }
    const tags = def.patch !== undefined && Object.hasOwn(def.patch, field) ? def.patch[field] : undefined;
    return {
      schema: new Schema(this.table, fields[field] as FieldNode, this.depth + 1),
      strategies: (tags?.strategy ?? "").split(","),
      mergeKey: tags?.mergeKey ?? "",
    };
  }

  /** LookupPatchMetadataForSlice: the element type of a list field, with the field's patch tags. */
  lookupForSlice(key: string): PatchMeta {
    const meta = this.lookupForStruct(key);
    const n = meta.schema.node;
    if (n === "bytes") return { ...meta, schema: new Schema(this.table, "uint8", meta.schema.depth + 1) };
    if (typeof n === "object" && "list" in n) {
      const elem = new Schema(this.table, n.list, meta.schema.depth + 1);
      if (elem.kind() === "slice") throw patchFailure("unexpected slice of slice");
      return { ...meta, schema: elem };
    }
    // kube prints the kind of the struct holding the field here, not the field's.
    throw patchFailure(`expected slice or array type, but got: ${this.kind()}`);
  }
}

/** extractRetainKeysPatchStrategy, of which the server uses only the strategy besides retainKeys. */
function otherStrategy(strategies: string[]): string {
  const [first = "", second] = strategies;
  if (strategies.length === 1) return first === "retainKeys" ? "" : first;
  if (strategies.length === 2) {
    if (first === "retainKeys") return second ?? "";
    if (second === "retainKeys") return first;
  }
  throw patchFailure(`unexpected patch strategy: [${strategies.join(" ")}]`);
}

// --- Directives ---

/** The list field a `$deleteFromPrimitiveList/<field>` or `$setElementOrder/<field>` key names. */
function directiveField(key: string, prefix: string): string {
  const slash = key.indexOf("/");
  if (slash < 0 || key.slice(0, slash) !== prefix) {
    throw prefix === setElementOrderPrefix ? badPatchFormat.setElementOrder() : badPatchFormat.primitiveList();
  }
  return key.slice(slash + 1);
}

/** `$patch` on a map: replace yields the patch without the marker, delete an empty map. */
function mapDirective(directive: unknown, patch: JsonObject): JsonObject {
  if (directive === "replace") {
    delete patch[directiveMarker];
    return patch;
  }
  if (directive === "delete") return {};
  throw badPatchType(directive, patch);
}

/** `$retainKeys`: keys of the original not listed are cleared; the patch may set only listed keys. */
function applyRetainKeys(original: JsonObject, patch: JsonObject): void {
  if (!has(patch, retainKeysDirective)) return;
  const list = patch[retainKeysDirective];
  delete patch[retainKeysDirective];
  if (!Array.isArray(list)) throw badPatchFormat.retainKeys();
  const retained = new Set(list.map(hashKey));
  const isRetained = (key: string) => retained.has(hashKey(key));
  for (const [key, value] of Object.entries(patch)) {
    if (value === null || key.startsWith(deleteFromPrimitiveListPrefix) || key.startsWith(setElementOrderPrefix)) {
      continue;
    }
    if (!isRetained(key)) throw badPatchFormat.retainKeys();
  }
  for (const key of Object.keys(original)) if (!isRetained(key)) delete original[key];
}

/**
 * Removes maps carrying `$patch` from a value taken whole; false when the value itself is one. Lists come
 * back as new lists, maps are edited in place.
 */
function removeDirectives(v: unknown): { value: unknown; keep: boolean } {
  const isDirective = (item: unknown) => isJsonObject(item) && has(item, directiveMarker);
  if (isDirective(v)) return { value: null, keep: false };
  const value = Array.isArray(v) ? [] : v;
  const pending: [unknown, unknown][] = [[v, value]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [from, to] = next;
    if (Array.isArray(from)) {
      for (const item of from) {
        if (isDirective(item)) continue;
        const copy = Array.isArray(item) ? [] : item;
        (to as unknown[]).push(copy);
        pending.push([item, copy]);
      }
    } else if (isJsonObject(from)) {
      for (const [key, item] of Object.entries(from)) {
        if (isDirective(item)) {
          delete from[key];
          continue;
        }
        const copy = Array.isArray(item) ? [] : item;
        put(from, key, copy);
        pending.push([item, copy]);
      }
    }
  }
  return { value, keep: true };
}

/** Removes null members from every map in `v`, lists' maps included. */
function discardNulls(v: unknown): void {
  const pending = [v];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (Array.isArray(next)) {
      for (const item of next) pending.push(item);
    } else if (isJsonObject(next)) {
      for (const [key, item] of Object.entries(next)) {
        if (item === null) delete next[key];
        else pending.push(item);
      }
    }
  }
}

/** A patch value the original does not have (or has with another type) is taken whole. */
function takePatchValue(original: JsonObject, key: string, patchValue: unknown, nullsToo: boolean): void {
  if (nullsToo) discardNulls(patchValue);
  const r = removeDirectives(patchValue);
  if (r.keep) put(original, key, r.value);
  else delete original[key];
}

// --- Element order ---

/** The reflect.Kind of a list's elements, all of which must share one Go type (sliceElementType). */
function elementKind(...lists: unknown[][]): string {
  let kind: string | undefined;
  for (const list of lists) {
    for (const item of list) {
      const type = goTypeOf(item);
      if (kind === undefined) {
        if (type === "nil") throw panicked();
        if (type === goSliceType) throw listsOfLists();
        kind = type;
      } else if (kind !== type) {
        throw patchFailure(`list element types are not identical: ${goV(lists)}`);
      }
    }
  }
  if (kind === undefined) throw patchFailure("no elements in any of the given slices");
  return kind;
}

/** What list items are ordered by: the merge key value for maps (null when missing), the value for primitives. */
function orderKey(mergeKey: string, kind: string): (item: unknown) => unknown {
  if (kind !== goMapType) return (item) => item;
  return (item) => (isJsonObject(item) && has(item, mergeKey) ? item[mergeKey] : null);
}

/** Positions of items in `list` by their order key. */
function positionsIn(list: unknown[], mergeKey: string, kind: string): (item: unknown) => number {
  const keyOf = orderKey(mergeKey, kind);
  const index = new KeyIndex(list, (item) => ({ key: keyOf(item) }));
  return (item) => index.find(keyOf(item));
}

function validateMergeKeys(mergeKey: string, ...lists: unknown[][]): void {
  for (const list of lists) {
    for (const item of list) {
      if (!isJsonObject(item)) throw badArgType(goMapType, item);
      if (!has(item, mergeKey)) throw noMergeKey(item, mergeKey);
    }
  }
}

/** Splits a list of maps into items kept and `$patch: delete` items. */
function splitDeletions(list: unknown[]): { kept: unknown[]; deleted: unknown[] } {
  const kept: unknown[] = [];
  const deleted: unknown[] = [];
  for (const item of list) {
    if (!isJsonObject(item)) throw badArgType(goMapType, item);
    (has(item, directiveMarker) && item[directiveMarker] === "delete" ? deleted : kept).push(item);
  }
  return { kept, deleted };
}

/** normalizeSliceOrder: a stable sort by position in `order`, deletions last. */
function sortByOrder(toSort: unknown[], order: unknown[], mergeKey: string, kind: string): unknown[] {
  let items = toSort;
  let deleted: unknown[] = [];
  if (kind === goMapType) {
    validateMergeKeys(mergeKey, toSort, order);
    ({ kept: items, deleted } = splitDeletions(toSort));
  }
  const positionOf = positionsIn(order, mergeKey, kind);
  const less = (a: unknown, b: unknown): boolean => {
    const ia = positionOf(a);
    if (ia < 0) return true;
    const ib = positionOf(b);
    return ib < 0 || ia < ib;
  };
  const sorted = [...items].sort((a, b) => (less(a, b) ? -1 : less(b, a) ? 1 : 0));
  return [...sorted, ...deleted];
}

/**
 * mergeSortedSlice: interleaves server-only items (left) into the patch's items (right) by their
 * positions in the live list; a patch item the live list lacks goes before the server-only item.
 */
function interleave(left: unknown[], right: unknown[], serverOrder: unknown[], mergeKey: string, kind: string) {
  const out: unknown[] = [];
  const positionOf = positionsIn(serverOrder, mergeKey, kind);
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (j >= right.length) out.push(left[i++]);
    else if (i >= left.length) out.push(right[j++]);
    else {
      const li = positionOf(left[i]);
      const ri = positionOf(right[j]);
      if (li >= 0 && ri >= 0 && li < ri) out.push(left[i++]);
      else out.push(right[j++]);
    }
  }
  return out;
}

/** normalizeElementOrder: patch items in patch order, server-only items in live order, merged. */
function normalizeOrder(
  patchItems: unknown[],
  serverOnly: unknown[],
  patchOrder: unknown[],
  serverOrder: unknown[],
  mergeKey: string,
  kind: string,
): unknown[] {
  const inPatchOrder = sortByOrder(patchItems, patchOrder, mergeKey, kind);
  const inServerOrder = sortByOrder(serverOnly, serverOrder, mergeKey, kind);
  return interleave(inServerOrder, inPatchOrder, serverOrder, mergeKey, kind);
}

/** Splits merged items into those the patch (or order list) names and the server-only rest. */
function partition(merged: unknown[], by: unknown[], mergeKey: string): { named: unknown[]; serverOnly: unknown[] } {
  const named: unknown[] = [];
  const serverOnly: unknown[] = [];
  if (mergeKey === "") {
    const inPatch = new Set(by.map(hashKey));
    for (const item of merged) (inPatch.has(hashKey(item)) ? named : serverOnly).push(item);
    return { named, serverOnly };
  }
  const index = new MergeKeyIndex(by, mergeKey);
  for (const item of merged) {
    if (!isJsonObject(item)) throw badArgType(goMapType, item);
    if (!has(item, mergeKey)) throw noMergeKey(item, mergeKey);
    (index.find(item[mergeKey]) >= 0 ? named : serverOnly).push(item);
  }
  return { named, serverOnly };
}

/** mergeKeyValueEqual: primitives by value, maps by their merge key values. */
function sameListItem(left: unknown, right: unknown, mergeKey: string): boolean {
  if (mergeKey === "") return goEqual(left, right);
  if (!isJsonObject(left)) throw badArgType(goMapType, left);
  if (!isJsonObject(right)) throw badArgType(goMapType, right);
  if (!has(left, mergeKey)) throw noMergeKey(left, mergeKey);
  if (!has(right, mergeKey)) throw noMergeKey(right, mergeKey);
  return goEqual(left[mergeKey], right[mergeKey]);
}

/** The patch list's items (deletions aside) must appear in the `$setElementOrder` list, in its order. */
function validateAgainstOrder(patchList: unknown[], order: unknown[], mergeKey: string): void {
  if (order.length === 0 || patchList.length === 0) return;
  const items = mergeKey === "" ? patchList : splitDeletions(patchList).kept;
  let p = 0;
  let o = 0;
  while (p < items.length && o < order.length) {
    if (isJsonObject(items[p]) && has(items[p] as JsonObject, directiveMarker)) {
      p++;
      continue;
    }
    if (sameListItem(items[p], order[o], mergeKey)) p++;
    o++;
  }
  if (p < items.length && o >= order.length) {
    throw patchFailure(
      `The order in patch list:\n${goV(patchList)}\n doesn't match ${setElementOrderPrefix} list:\n${goV(order)}\n`,
    );
  }
}

// --- Merging ---

function mergeMap(original: JsonObject, patch: JsonObject, schema: Schema): JsonObject {
  // Merging recurses where both sides nest; past kapi's deepest object the result could not be stored anyway.
  if (schema.depth > maxObjectDepth) throw storedObjectTooDeep("{");
  if (has(patch, directiveMarker)) return mapDirective(patch[directiveMarker], patch);
  applyRetainKeys(original, patch);
  applyElementOrders(original, patch, schema);
  for (const patchKey of Object.keys(patch)) {
    const patchValue = patch[patchKey];
    const isDeleteList = patchKey.startsWith(deleteFromPrimitiveListPrefix);
    const key = isDeleteList ? directiveField(patchKey, deleteFromPrimitiveListPrefix) : patchKey;
    if (patchValue === null) {
      delete original[key];
      continue;
    }
    if (!has(original, key) || goTypeOf(original[key]) !== goTypeOf(patchValue)) {
      if (!isDeleteList) takePatchValue(original, key, patchValue, true);
      continue;
    }
    const current = original[key];
    if (isJsonObject(current)) {
      const meta = schema.lookupForStruct(key);
      const replace = otherStrategy(meta.strategies) === "replace";
      put(original, key, replace ? patchValue : mergeMap(current, patchValue as JsonObject, meta.schema));
    } else if (Array.isArray(current)) {
      const meta = schema.lookupForSlice(key);
      const strategy = otherStrategy(meta.strategies);
      const list = patchValue as unknown[];
      put(original, key, mergeList(GoSlice.of(current), list, meta.schema, strategy, meta.mergeKey, isDeleteList));
    } else {
      takePatchValue(original, key, patchValue, false);
    }
  }
  return original;
}

/**
 * `$setElementOrder/<field>`: merges the field's list (when the patch has one) and orders the result:
 * items named by the order list in its order, server-only items among them by their live positions.
 */
function applyElementOrders(original: JsonObject, patch: JsonObject, schema: Schema): void {
  for (const key of Object.keys(patch)) {
    if (!has(patch, key) || !key.startsWith(setElementOrderPrefix)) continue;
    const order = patch[key];
    delete patch[key];
    if (!Array.isArray(order)) throw badArgType(goSliceType, order);
    const field = directiveField(key, setElementOrderPrefix);
    const foundOriginal = has(original, field);
    const foundPatch = has(patch, field);
    const live = foundOriginal ? original[field] : [];
    const patchList = foundPatch ? patch[field] : [];
    if (!Array.isArray(live)) throw badArgType(goSliceType, live);
    if (!Array.isArray(patchList)) throw badArgType(goSliceType, patchList);
    const meta = schema.lookupForSlice(field);
    const strategy = otherStrategy(meta.strategies);
    validateAgainstOrder(patchList, order, meta.mergeKey);
    if (!foundOriginal && !foundPatch) continue;
    let merged: unknown[];
    if (!foundPatch) merged = live;
    else if (!foundOriginal) merged = removeDirectives(patchList).value as unknown[];
    else merged = mergeList(GoSlice.of(live), patchList, meta.schema, strategy, meta.mergeKey, false);
    // `live` now shows kube's in-place deletions and appends, which its ordering reads.
    const { named, serverOnly } = partition(merged, order, meta.mergeKey);
    const kind = elementKind(live, patchList);
    put(original, field, normalizeOrder(named, serverOnly, order, live, meta.mergeKey, kind));
    delete patch[field];
  }
}

/** mergeSliceHandler: lists with the merge strategy (and deletion lists) merge, others are replaced. */
function mergeList(
  original: GoSlice,
  patch: unknown[],
  schema: Schema,
  strategy: string,
  mergeKey: string,
  isDeleteList: boolean,
): unknown[] {
  if (strategy !== "merge" && !isDeleteList) return patch;
  if (original.length === 0 && patch.length === 0) return original.items();
  const kind = elementKind(original.items(), patch);
  let patchItems = patch;
  let serverOrder = original.items();
  let merged: unknown[];
  if (kind !== goMapType) {
    if (isDeleteList) {
      const doomed = new Set(patch.map(hashKey));
      return serverOrder.filter((item) => !doomed.has(hashKey(item)));
    }
    merged = deduplicate([...serverOrder, ...patch]);
  } else {
    if (mergeKey === "") throw patchFailure(`cannot merge lists without merge key for ${schema.kind()}`);
    const special = applyItemDirectives(original, patch, mergeKey);
    patchItems = special.patchItems;
    // kube orders by the list as it stands after deletions; appends land beyond that view.
    serverOrder = special.live.items();
    merged = mergeItems(special.live, patchItems, mergeKey, schema).items();
  }
  const { named, serverOnly } = partition(merged, patchItems, mergeKey);
  return normalizeOrder(named, serverOnly, patchItems, serverOrder, mergeKey, kind);
}

/**
 * deduplicateScalars: one of each value. kube's swaps leave another order, which the ordering that follows
 * undoes, so the first of equal values is kept in place.
 */
function deduplicate(items: unknown[]): unknown[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = hashKey(item);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * `$patch: delete` items of a keyed list: each removes every live item with its merge key value, first to
 * last, as kube does by shifting the rest of the list left in place once per item. The removals are noted
 * as the directives come and done at once, leaving the backing array as kube's shifts leave it: the kept
 * items, then in the freed slots what each shift left behind (the slice's last item at that time).
 */
class Deletions {
  private readonly positions = new Map<string, number[]>();
  private readonly unhashable = new Set<string>();
  private readonly removed: number[] = [];
  /** A list holding non-maps is searched item by item, for kube's error at the first one met. */
  private slow: GoSlice | undefined;

  constructor(
    private readonly live: GoSlice,
    private readonly mergeKey: string,
  ) {
    const items = live.items();
    if (!items.every(isJsonObject)) {
      this.slow = live;
      return;
    }
    items.forEach((item, position) => {
      if (!has(item, mergeKey)) return;
      const key = item[mergeKey];
      const type = goTypeOf(key);
      if (type === goMapType || type === goSliceType) {
        this.unhashable.add(type);
        return;
      }
      const hash = hashKey(key);
      const list = this.positions.get(hash);
      if (list === undefined) this.positions.set(hash, [position]);
      else list.push(position);
    });
  }

  remove(key: unknown): void {
    if (this.slow !== undefined) {
      for (let i = new MergeKeyIndex(this.slow.items(), this.mergeKey).find(key); i >= 0; ) {
        this.slow = this.slow.removeAt(i);
        i = new MergeKeyIndex(this.slow.items(), this.mergeKey).find(key);
      }
      return;
    }
    const type = goTypeOf(key);
    if (type === goMapType || type === goSliceType) {
      if (this.unhashable.has(type)) throw panicked();
      return;
    }
    const hash = hashKey(key);
    for (const position of this.positions.get(hash) ?? []) this.removed.push(position);
    this.positions.delete(hash);
  }

  /** The live list after the removals, in the same backing array. */
  apply(): GoSlice {
    if (this.slow !== undefined) return this.slow;
    const { backing, length } = this.live;
    if (this.removed.length === 0) return this.live;
    const items = this.live.items();
    const gone = new Uint8Array(length);
    let last = length - 1;
    this.removed.forEach((position, j) => {
      gone[position] = 1;
      while (last >= 0 && gone[last] === 1) last--;
      if (j < this.removed.length - 1) backing[length - 2 - j] = items[last];
    });
    let kept = 0;
    items.forEach((item, position) => {
      if (gone[position] !== 1) backing[kept++] = item;
    });
    return new GoSlice(backing, kept);
  }
}

/**
 * List items carrying `$patch`: delete removes every live item with the merge key value, replace makes
 * the patch's other items the whole list; the other items are returned to merge.
 */
function applyItemDirectives(
  original: GoSlice,
  patch: unknown[],
  mergeKey: string,
): { live: GoSlice; patchItems: unknown[] } {
  const plain: unknown[] = [];
  const deletions = new Deletions(original, mergeKey);
  let replace = false;
  for (const v of patch) {
    const item = v as JsonObject;
    if (!has(item, directiveMarker)) {
      plain.push(item);
      continue;
    }
    const directive = item[directiveMarker];
    if (directive === "delete") {
      if (!has(item, mergeKey)) throw noMergeKey(item, mergeKey);
      deletions.remove(item[mergeKey]);
    } else if (directive === "replace") {
      replace = true;
    } else if (directive === "merge") {
      throw patchFailure("merging lists cannot yet be specified in the patch");
    } else {
      throw badPatchType(directive, item);
    }
  }
  return replace ? { live: GoSlice.of(plain), patchItems: [] } : { live: deletions.apply(), patchItems: plain };
}

/** Patch items merge into the live item with their merge key value, or are appended. */
function mergeItems(live: GoSlice, patchItems: unknown[], mergeKey: string, schema: Schema): GoSlice {
  let out = live;
  const index = new MergeKeyIndex(live.items(), mergeKey);
  for (const v of patchItems) {
    const item = v as JsonObject;
    if (!has(item, mergeKey)) throw noMergeKey(item, mergeKey);
    const i = index.find(item[mergeKey]);
    if (i >= 0) out.backing[i] = mergeMap(out.backing[i] as JsonObject, item, schema);
    else {
      out = out.append(item);
      index.push(item);
    }
  }
  return out;
}

// --- Entry points ---

/**
 * Applies a strategic merge patch to `original` (a JSON object, not modified) as kube-apiserver does,
 * with `root` the kind's definition in `table` (`table.kinds["apps/v1/Deployment"]`). `patch` is the
 * decoded request body; JSON `null` changes nothing. Returns the patched object, which, like kube's
 * before its typed decoding, may still hold `null` values and directive keys inside values taken whole
 * (new list items, replaced lists and maps): the caller's decoding drops them as kube's does.
 *
 * Throws StatusError as kube answers: 400 BadRequest when the body is not a JSON object
 * (`json: cannot unmarshal array into Go value of type map[string]interface {}`) and for malformed
 * `$deleteFromPrimitiveList`, `$retainKeys` and `$setElementOrder` directives (`invalid patch format of
 * …`); 422 for lists of lists; 400 with kube's error text for everything else kube does not map and
 * answers 500 (a missing merge key, an unknown `$patch`, an order that contradicts the patch list, a
 * field the schema lacks where both sides hold objects or lists); 400 `invalid character '{' exceeded
 * max depth` where merging would nest past the deepest object kapi stores.
 */
export function applyStrategicMergePatch(
  original: unknown,
  patch: unknown,
  table: FieldTable,
  root: FieldNode,
): unknown {
  if (!isJsonObject(original)) throw new Error("strategic merge patch applies to a JSON object");
  const target = cloneJson(original);
  if (patch === null) return target;
  if (!isJsonObject(patch)) {
    const found = Array.isArray(patch) ? "array" : typeof patch === "boolean" ? "bool" : typeof patch;
    throw badRequest(`json: cannot unmarshal ${found} into Go value of type ${goMapType}`);
  }
  return mergeMap(target, cloneJson(patch), new Schema(table, root));
}

/**
 * Whether kube serves strategic merge patch for a kind: every kind compiled into the table, with or
 * without patch strategies (kube applies it to all built-in types; without markers it merges maps and
 * replaces lists). The key is the table's (`apps/v1/Deployment`, `v1/Pod`). Kinds outside the table
 * (custom resources) answer 415 UnsupportedMediaType listing only the JSON patch, merge patch and apply
 * patch types, as kube-apiserver's custom resource handler does.
 */
export function servesStrategicMergePatch(table: FieldTable, kindKey: string): boolean {
  return Object.hasOwn(table.kinds, kindKey);
}
