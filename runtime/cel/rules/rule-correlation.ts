// Which old value belongs to a new one while rules walk an object on update (Kubernetes' map-list
// lookup and CorrelatedObject): object fields and map entries by name, items of `map` lists by their
// key fields; items of `set` and atomic lists have no old value. The same correlation decides
// ratcheting: a rule's error on a value that did not change is only a warning.
import { isDeepStrictEqual } from "node:util";
import { isJsonObject } from "../../object/json-object.js";
import type { StructuralSchema } from "./structural-schema.js";

/** A scalar key value, or undefined when the item has none (such items correlate with nothing). */
function keyPart(v: unknown): string | undefined {
  switch (typeof v) {
    case "string":
      return `s${v}`;
    case "number":
      return `n${v}`;
    case "boolean":
      return `b${v}`;
    default:
      return undefined;
  }
}

function itemKey(item: unknown, keys: readonly string[]): string | undefined {
  if (!isJsonObject(item)) return undefined;
  const parts: string[] = [];
  for (const k of keys) {
    const part = Object.hasOwn(item, k) ? keyPart(item[k]) : undefined;
    if (part === undefined) return undefined;
    parts.push(part);
  }
  return JSON.stringify(parts);
}

/** Finds old items of a `map` list by the key fields of a new item; the first old item with a key wins. */
export class MapListIndex {
  private readonly byKey = new Map<string, unknown>();
  constructor(
    old: readonly unknown[],
    private readonly keys: readonly string[],
  ) {
    for (const item of old) {
      const k = itemKey(item, keys);
      if (k !== undefined && !this.byKey.has(k)) this.byKey.set(k, item);
    }
  }
  get(item: unknown): unknown {
    const k = itemKey(item, this.keys);
    return k === undefined ? undefined : this.byKey.get(k);
  }
}

/** A lookup of old list items for a list schema; undefined when its items do not correlate. */
export function mapListIndex(schema: StructuralSchema, old: unknown): MapListIndex | undefined {
  const keys = schema["x-kubernetes-list-map-keys"];
  if (schema["x-kubernetes-list-type"] !== "map" || keys === undefined || keys.length === 0 || !Array.isArray(old)) {
    return undefined;
  }
  return new MapListIndex(old, keys);
}

/** The schema of a field or map entry below an object schema. */
export function childSchema(schema: StructuralSchema, name: string): StructuralSchema | undefined {
  const prop = schema.properties?.[name];
  if (prop !== undefined) return prop;
  return typeof schema.additionalProperties === "object" ? schema.additionalProperties : undefined;
}

/**
 * A new value with its correlated old one, for ratcheting. Equality is Kubernetes' CachedDeepEqual:
 * map lists compare item by key (order does not matter), fields without a schema never compare equal.
 */
export class Correlated {
  private equal: boolean | undefined;
  constructor(
    readonly value: unknown,
    readonly old: unknown,
    readonly schema: StructuralSchema,
  ) {}

  /** The field or entry `name`, when both sides have it. */
  key(name: string): Correlated | undefined {
    if (!isJsonObject(this.value) || !isJsonObject(this.old)) return undefined;
    if (!Object.hasOwn(this.value, name) || !Object.hasOwn(this.old, name)) return undefined;
    const schema = childSchema(this.schema, name);
    return schema === undefined ? undefined : new Correlated(this.value[name], this.old[name], schema);
  }

  /** The list item at `index`, when the list is a map list and the old list has an item with its keys. */
  index(index: number, lookup: MapListIndex | undefined): Correlated | undefined {
    if (!Array.isArray(this.value) || lookup === undefined || this.schema.items === undefined) return undefined;
    const old = lookup.get(this.value[index]);
    return old === undefined ? undefined : new Correlated(this.value[index], old, this.schema.items);
  }

  unchanged(): boolean {
    this.equal ??= this.compare();
    return this.equal;
  }

  private compare(): boolean {
    const { value, old } = this;
    if (value === null || value === undefined || old === null || old === undefined) return value === old;
    if (Array.isArray(value) && Array.isArray(old)) {
      if (value.length !== old.length) return false;
      const lookup = mapListIndex(this.schema, old);
      if (lookup === undefined) return isDeepStrictEqual(value, old);
      return value.every((_, i) => this.index(i, lookup)?.unchanged() === true);
    }
    if (isJsonObject(value) && isJsonObject(old)) {
      const names = Object.keys(value);
      if (names.length !== Object.keys(old).length) return false;
      return names.every((name) => this.key(name)?.unchanged() === true);
    }
    return Array.isArray(value) === Array.isArray(old) && isDeepStrictEqual(value, old);
  }
}
