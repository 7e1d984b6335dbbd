// A decoded JSON value seen through its schema as a CEL value, the way Kubernetes' UnstructuredToVal
// does it: nothing is copied, children are wrapped when read. Objects with properties are object
// values whose fields are the escaped property names (a null field reads as absent), maps keep their
// JSON keys, lists carry their `set` or `map` list type (which makes equality ignore order and `+`
// merge), integers are bigints and numbers doubles, formats byte, date, date-time and duration decode
// to bytes, timestamps and durations. Data that does not fit its schema reads as an error value.
import { isDeepStrictEqual } from "node:util";
import { isJsonObject } from "../../object/json-object.js";
import { type CelType, type ObjectType, opaqueType } from "../common/cel-types.js";
import { CelError, CelList, CelMap, CelObject, CelOpaque, type CelValue } from "../common/values.js";
import { escapeName, unescapeName } from "./escaping.js";
import { parseBase64, parseDate, parseDateTime, parseDuration } from "./schema-formats.js";
import type { DeclType } from "./schema-types.js";

type JsonObject = Readonly<Record<string, unknown>>;

/** The CEL value of `json` (a decoded JSON value; undefined reads as null) of the given type. */
export function celValueOf(json: unknown, type: DeclType): CelValue {
  if (json === null || json === undefined) {
    return type.nullable ? null : new CelError("invalid data, got null for schema with nullable=false");
  }
  switch (type.value) {
    case "int":
      return typeof json === "number" && Number.isInteger(json)
        ? intOf(json)
        : new CelError(`invalid data, expected int, got ${goTypeName(json)}`);
    case "string":
      return typeof json === "string" ? json : new CelError(`invalid data, expected string, got ${goTypeName(json)}`);
    case "object":
      return isJsonObject(json) ? new SchemaObject(json, type) : notAMap();
    case "list":
      return Array.isArray(json)
        ? new SchemaList(json, type)
        : new CelError("invalid data, expected an array for the provided schema with type=array");
    case "map":
      return isJsonObject(json) ? new SchemaMap(json, type) : notAMap();
    case "bool":
      return typeof json === "boolean" ? json : new CelError(`invalid data, expected bool, got ${goTypeName(json)}`);
    case "double":
      return typeof json === "number" ? json : new CelError(`invalid data, expected float, got ${goTypeName(json)}`);
    case "intOrString":
      if (typeof json === "string") return json;
      if (typeof json === "number" && Number.isInteger(json)) return intOf(json);
      return new CelError("invalid data, expected XIntOrString value to be either a string or integer");
  }
  if (typeof json !== "string") return new CelError(`invalid data, expected string, got ${goTypeName(json)}`);
  switch (type.value) {
    case "bytes":
      return parseBase64(json);
    case "duration":
      return parseDuration(json);
    case "date":
      return parseDate(json);
    default:
      return parseDateTime(json);
  }
}

function notAMap(): CelError {
  return new CelError("invalid data, expected a map for the provided schema with type=object");
}

/** Small ints are the usual case (replicas, ports); their bigints are made once. */
const smallInts = Array.from({ length: 1024 }, (_, i) => BigInt(i));

function intOf(n: number): bigint {
  return n >= 0 && n < 1024 ? (smallInts[n] as bigint) : BigInt(n);
}

/** The Go type encoding/json decodes a value into, for error messages. */
function goTypeName(v: unknown): string {
  if (typeof v === "string") return "string";
  if (typeof v === "boolean") return "bool";
  if (typeof v === "number") return Number.isInteger(v) ? "int64" : "float64";
  if (Array.isArray(v)) return "[]interface {}";
  return "map[string]interface {}";
}

const preservedType = opaqueType("unknown");

/**
 * The value of a property CEL cannot see (no type, only x-kubernetes-preserve-unknown-fields, or a
 * field the schema does not declare): it only takes part in equality, comparing as JSON.
 */
export class PreservedValue extends CelOpaque {
  readonly celType: CelType = preservedType;
  constructor(readonly json: unknown) {
    super();
  }
  equals(other: CelValue): boolean {
    return other instanceof PreservedValue && isDeepStrictEqual(this.json, other.json);
  }
}

/** An object with properties: fields are read by their CEL (escaped) names. */
export class SchemaObject extends CelObject {
  readonly type: ObjectType;
  constructor(
    readonly json: JsonObject,
    readonly decl: DeclType,
  ) {
    super();
    this.type = decl.celType as ObjectType;
  }

  get(field: string): CelValue | undefined {
    const declared = this.decl.fields?.get(field);
    if (declared !== undefined) {
      // Object.hasOwn is slow; only names every object inherits need it.
      const raw = declared.inherited ? ownValue(this.json, declared.property) : this.json[declared.property];
      return raw === null || raw === undefined ? undefined : celValueOf(raw, declared.type);
    }
    // Properties CEL does not declare are reached only by equality, as JSON.
    const raw = ownValue(this.json, unescapeName(field) ?? field);
    return raw === null || raw === undefined ? undefined : new PreservedValue(raw);
  }

  *fieldNames(): IterableIterator<string> {
    for (const [property, raw] of Object.entries(this.json)) {
      if (raw !== null && raw !== undefined)
        yield this.decl.fieldsByProperty?.get(property)?.name ?? escapeName(property) ?? property;
    }
  }
}

function ownValue(json: JsonObject, property: string): unknown {
  return Object.hasOwn(json, property) ? json[property] : undefined;
}

/** An object with additionalProperties: a map with the JSON keys. */
export class SchemaMap extends CelMap {
  private readonly values: DeclType;
  constructor(
    readonly json: JsonObject,
    decl: DeclType,
  ) {
    super();
    this.values = decl.elem as DeclType;
  }
  get size(): number {
    return Object.keys(this.json).length;
  }
  get(key: CelValue): CelValue | undefined {
    if (typeof key !== "string" || !Object.hasOwn(this.json, key)) return undefined;
    return celValueOf(this.json[key], this.values);
  }
  *keys(): IterableIterator<CelValue> {
    yield* Object.keys(this.json);
  }
}

/** An array; `set` and `map` lists say so for equality and concatenation. */
export class SchemaList extends CelList {
  private readonly items: DeclType;
  constructor(
    readonly json: readonly unknown[],
    decl: DeclType,
  ) {
    super();
    this.items = decl.elem as DeclType;
    this.elemType = this.items.celType;
    const listKind = decl.schema["x-kubernetes-list-type"];
    if (listKind === "set") this.listType = "set";
    if (listKind === "map") {
      this.listType = "map";
      this.mapKeys = (decl.schema["x-kubernetes-list-map-keys"] ?? []).map((k) => escapeName(k) ?? k);
    }
  }
  get size(): number {
    return this.json.length;
  }
  get(index: number): CelValue {
    return celValueOf(this.json[index], this.items);
  }
}
