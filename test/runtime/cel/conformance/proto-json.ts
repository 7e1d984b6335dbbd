// Conversions between the conformance suite's proto-JSON (cel.expr.Value, cel.expr.Type, cel.expr.Decl)
// and kapi's CEL values and types. Anything that needs a protobuf message kapi does not model (TestAllTypes,
// wrappers, Struct/Value/Any payloads, enums) raises NeedsProtobuf, which the runner reports as a skip.
import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import {
  AnyType,
  BoolType,
  BytesType,
  type CelType,
  DoubleType,
  DurationType,
  DynType,
  ErrorType,
  IntType,
  listType,
  mapType,
  NullType,
  opaqueType,
  StringType,
  TimestampType,
  typeOfType,
  typeParam,
  UintType,
} from "../../../../runtime/cel/common/cel-types.js";
import type { FunctionDecl, OverloadDecl, VariableDecl } from "../../../../runtime/cel/common/decls.js";
import {
  ArrayList,
  CelDuration,
  CelTimestamp,
  CelTypeValue,
  CelUint,
  type CelValue,
  HashMap,
} from "../../../../runtime/cel/common/values.js";

/** The test needs protobuf message support kapi does not have. */
export class NeedsProtobuf extends Error {}

const PRIMITIVES: Readonly<Record<string, CelType>> = {
  BOOL: BoolType,
  INT64: IntType,
  UINT64: UintType,
  DOUBLE: DoubleType,
  STRING: StringType,
  BYTES: BytesType,
};

const WELL_KNOWN: Readonly<Record<string, CelType>> = {
  ANY: AnyType,
  TIMESTAMP: TimestampType,
  DURATION: DurationType,
};

const MESSAGE_TYPES: Readonly<Record<string, CelType>> = {
  "google.protobuf.Timestamp": TimestampType,
  "google.protobuf.Duration": DurationType,
  "google.protobuf.Any": AnyType,
};

const TYPE_URL_PREFIX = "type.googleapis.com/";

/** A cel.expr.Type in proto-JSON form as a CelType. */
export function typeFromJson(json: JsonObject): CelType {
  if (typeof json.primitive === "string")
    return PRIMITIVES[json.primitive] ?? unsupported(`primitive ${json.primitive}`);
  if (typeof json.wellKnown === "string")
    return WELL_KNOWN[json.wellKnown] ?? unsupported(`well-known ${json.wellKnown}`);
  if (typeof json.messageType === "string") {
    const t = MESSAGE_TYPES[json.messageType];
    if (t === undefined) throw new NeedsProtobuf(`message type ${json.messageType}`);
    return t;
  }
  if ("dyn" in json) return DynType;
  if ("null" in json) return NullType;
  if ("error" in json) return ErrorType;
  if (typeof json.typeParam === "string") return typeParam(json.typeParam);
  if ("wrapper" in json) throw new NeedsProtobuf(`wrapper type ${String(json.wrapper)}`);
  if (isObject(json.listType)) return listType(typeFromJson(objectOrEmpty(json.listType.elemType)));
  if (isObject(json.mapType)) {
    return mapType(
      typeFromJson(objectOrEmpty(json.mapType.keyType)),
      typeFromJson(objectOrEmpty(json.mapType.valueType)),
    );
  }
  if ("type" in json) {
    const param = objectOrEmpty(json.type);
    return typeOfType(Object.keys(param).length === 0 ? DynType : typeFromJson(param));
  }
  if (isObject(json.abstractType)) {
    const params = (json.abstractType.parameterTypes ?? []) as JsonObject[];
    return opaqueType(String(json.abstractType.name), ...params.map(typeFromJson));
  }
  return unsupported(JSON.stringify(json));
}

function unsupported(what: string): never {
  throw new Error(`unsupported type in test: ${what}`);
}

/** The variables and functions a test's type_env declares. */
export function declsFromJson(typeEnv: readonly JsonObject[]): {
  variables: VariableDecl[];
  functions: FunctionDecl[];
} {
  const variables: VariableDecl[] = [];
  const functions: FunctionDecl[] = [];
  for (const decl of typeEnv) {
    const name = String(decl.name);
    if (isObject(decl.ident)) variables.push({ name, type: typeFromJson(objectOrEmpty(decl.ident.type)) });
    else if (isObject(decl.function)) {
      const overloads = ((decl.function.overloads ?? []) as JsonObject[]).map(
        (o): OverloadDecl => ({
          id: String(o.overloadId),
          member: o.isInstanceFunction === true,
          params: ((o.params ?? []) as JsonObject[]).map(typeFromJson),
          result: typeFromJson(objectOrEmpty(o.resultType)),
          typeParams: (o.typeParams ?? []) as string[],
        }),
      );
      functions.push({ name, overloads });
    }
  }
  return { variables, functions };
}

/** A cel.expr.Value in proto-JSON form as a CEL value. */
export function valueFromJson(json: JsonObject): CelValue {
  if ("nullValue" in json) return null;
  if (typeof json.boolValue === "boolean") return json.boolValue;
  if ("int64Value" in json) return BigInt(json.int64Value as string | number);
  if ("uint64Value" in json) return new CelUint(BigInt(json.uint64Value as string | number));
  if ("doubleValue" in json) return Number(json.doubleValue);
  if (typeof json.stringValue === "string") return json.stringValue;
  if (typeof json.bytesValue === "string") return new Uint8Array(Buffer.from(json.bytesValue, "base64"));
  if (isObject(json.listValue))
    return new ArrayList(((json.listValue.values ?? []) as JsonObject[]).map(valueFromJson));
  if (isObject(json.mapValue)) {
    const map = new HashMap();
    for (const entry of (json.mapValue.entries ?? []) as JsonObject[]) {
      map.set(valueFromJson(objectOrEmpty(entry.key)), valueFromJson(objectOrEmpty(entry.value)));
    }
    return map;
  }
  if (isObject(json.objectValue)) return objectFromJson(json.objectValue);
  if ("enumValue" in json) throw new NeedsProtobuf("enum value");
  // Type values compare by name (see sameValue), so an opaque type carrying the name stands in.
  if (typeof json.typeValue === "string") return new CelTypeValue(opaqueType(json.typeValue));
  return unsupported(`value ${JSON.stringify(json)}`);
}

function objectFromJson(json: JsonObject): CelValue {
  const url = String(json["@type"] ?? "");
  const type = url.startsWith(TYPE_URL_PREFIX) ? url.slice(TYPE_URL_PREFIX.length) : url;
  if (type === "google.protobuf.Timestamp") return timestampFromJson(String(json.value));
  if (type === "google.protobuf.Duration") return durationFromJson(String(json.value));
  throw new NeedsProtobuf(`object value ${type}`);
}

/** RFC 3339 as proto-JSON writes Timestamps: `2009-02-13T23:31:30.123456789Z` or with an offset. */
export function timestampFromJson(text: string): CelTimestamp {
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/.exec(text);
  if (!m) throw new Error(`bad timestamp ${text}`);
  const millis = Date.parse(`${m[1]}${m[3]}`);
  const nanos = Number((m[2] ?? "").padEnd(9, "0") || "0");
  return new CelTimestamp(BigInt(millis / 1000), nanos);
}

/** proto-JSON Durations: `-1.5s`, `3600s`. */
export function durationFromJson(text: string): CelDuration {
  const m = /^(-)?(\d+)(?:\.(\d{1,9}))?s$/.exec(text);
  if (!m) throw new Error(`bad duration ${text}`);
  const nanos = BigInt(m[2] as string) * 1_000_000_000n + BigInt((m[3] ?? "").padEnd(9, "0") || "0");
  return new CelDuration(m[1] ? -nanos : nanos);
}

function isObject(v: JsonValue | undefined): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function objectOrEmpty(v: JsonValue | undefined): JsonObject {
  return isObject(v) ? v : {};
}
