// Untyped JSON as CEL values, the way Kubernetes hands admission objects to CEL (unstructured content
// through cel-go's native type adapter): objects are maps with string keys, arrays are lists, whole
// numbers are ints and other numbers doubles. Wrapping is lazy so a rule that reads one field of a large
// object converts only that field.
import { CelList, CelMap, type CelValue } from "./values.js";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The CEL value of a decoded JSON value; undefined (an absent member) reads as null. */
export function jsonToCel(value: unknown): CelValue {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      return Number.isInteger(value) ? BigInt(value) : value;
    case "object":
      if (value === null) return null;
      if (Array.isArray(value)) return new JsonList(value);
      return new JsonMap(value as Record<string, unknown>);
    default:
      return null;
  }
}

/** A JSON array as a CEL list, converting elements on access. */
export class JsonList extends CelList {
  constructor(readonly json: readonly unknown[]) {
    super();
  }
  get size(): number {
    return this.json.length;
  }
  get(index: number): CelValue {
    return jsonToCel(this.json[index]);
  }
}

/** A JSON object as a CEL map with string keys, converting values on access. */
export class JsonMap extends CelMap {
  constructor(readonly json: Readonly<Record<string, unknown>>) {
    super();
  }
  get size(): number {
    return Object.keys(this.json).length;
  }
  get(key: CelValue): CelValue | undefined {
    if (typeof key !== "string" || !Object.hasOwn(this.json, key)) return undefined;
    return jsonToCel(this.json[key]);
  }
  *keys(): IterableIterator<CelValue> {
    yield* Object.keys(this.json);
  }
}

/**
 * A CEL value back as JSON (for results that leave the engine, such as audit annotation values);
 * undefined for values JSON cannot carry.
 */
export function celToJson(value: CelValue): Json | undefined {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "bigint":
      return Number(value);
    case "number":
      return Number.isFinite(value) ? value : undefined;
    case "object":
      if (value === null) return null;
      if (value instanceof JsonMap) return value.json as Json;
      if (value instanceof JsonList) return value.json as Json;
      if (value instanceof CelList) {
        const out: Json[] = [];
        for (const item of value) {
          const json = celToJson(item);
          if (json === undefined) return undefined;
          out.push(json);
        }
        return out;
      }
      if (value instanceof CelMap) {
        const out: Record<string, Json> = {};
        for (const [k, v] of value.entries()) {
          const json = celToJson(v);
          if (typeof k !== "string" || json === undefined) return undefined;
          out[k] = json;
        }
        return out;
      }
      return undefined;
    default:
      return undefined;
  }
}
