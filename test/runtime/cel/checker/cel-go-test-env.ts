// The environment of cel-go's checker tests: its "default" declarations (is, ii, …, fg_s, fi_s_s), the
// standard library as its checker sees it by default, without cross-type numeric comparisons
// (Kubernetes enables those, so kapi's standard library declares them), and the fields of its protobuf
// test messages those tests use, as object types (which is how kapi models Kubernetes schemas).
import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import {
  BoolType,
  BytesType,
  type CelType,
  DoubleType,
  DurationType,
  DynType,
  IntType,
  listType,
  mapType,
  NullType,
  type ObjectType,
  objectType,
  StringType,
  TimestampType,
  typeOfType,
  UintType,
} from "../../../../runtime/cel/common/cel-types.js";
import type { CelLibrary, FunctionDecl, VariableDecl } from "../../../../runtime/cel/common/decls.js";
import { standardLibrary } from "../../../../runtime/cel/library/standard.js";
import { declsFromJson } from "../conformance/proto-json.js";

const CROSS_TYPE_COMPARISON = /^(less|less_equals|greater|greater_equals)_(int64|uint64|double)_(int64|uint64|double)$/;

export const standardLibraryWithoutCrossTypeComparisons: CelLibrary = {
  ...standardLibrary,
  functions: (standardLibrary.functions ?? []).map((fn) => ({
    ...fn,
    overloads: fn.overloads.filter((o) => !CROSS_TYPE_COMPARISON.test(o.id)),
  })),
};

export const celGoCheckerTestLibrary: CelLibrary = {
  name: "cel-go checker test default",
  variables: [
    { name: "is", type: StringType },
    { name: "ii", type: IntType },
    { name: "iu", type: UintType },
    { name: "iz", type: BoolType },
    { name: "ib", type: BytesType },
    { name: "id", type: DoubleType },
    { name: "ix", type: NullType },
  ],
  functions: [
    { name: "fg_s", overloads: [{ id: "fg_s_0", member: false, params: [], result: StringType }] },
    { name: "fi_s_s", overloads: [{ id: "fi_s_s_0", member: true, params: [StringType], result: StringType }] },
  ],
};

/** An object type with the given field types. */
export function message(name: string, fields: Record<string, CelType>): ObjectType {
  return objectType(name, new Map(Object.entries(fields).map(([field, type]) => [field, { type }])));
}

function testAllTypes(pkg: string, extra: Record<string, CelType>): ObjectType {
  const nested = message(`${pkg}.TestAllTypes.NestedMessage`, { bb: IntType });
  return message(`${pkg}.TestAllTypes`, {
    single_int32: IntType,
    single_int64: IntType,
    single_value: DynType,
    single_struct: mapType(StringType, DynType),
    single_timestamp: TimestampType,
    single_duration: DurationType,
    single_nested_message: nested,
    repeated_int32: listType(IntType),
    repeated_int64: listType(IntType),
    repeated_nested_message: listType(nested),
    map_string_string: mapType(StringType, StringType),
    ...extra,
  });
}

const proto3TestAllTypes = testAllTypes("google.expr.proto3.test", {
  map_int64_nested_type: mapType(IntType, message("google.expr.proto3.test.NestedTestAllTypes", {})),
});
const proto2TestAllTypes = testAllTypes("google.expr.proto2.test", {
  nestedgroup: message("google.expr.proto2.test.TestAllTypes.NestedGroup", { nested_id: IntType }),
});

/** cel-go's test messages (the fields its checker tests use) and the JSON well-known types, by message name. */
const MESSAGES: ReadonlyMap<string, CelType> = new Map([
  [proto3TestAllTypes.name, proto3TestAllTypes],
  [proto2TestAllTypes.name, proto2TestAllTypes],
  ["google.protobuf.Struct", mapType(StringType, DynType)],
  ["google.protobuf.ListValue", listType(DynType)],
  ["google.protobuf.Value", DynType],
]);

export const celGoTestMessagesLibrary: CelLibrary = {
  name: "cel-go test messages",
  types: [proto3TestAllTypes, proto2TestAllTypes],
};

const MESSAGE_MARK = "message:";

/** A test's typeEnv declarations, with the messages above as their CEL types. */
export function celGoTestDecls(typeEnv: readonly JsonObject[]): {
  variables: VariableDecl[];
  functions: FunctionDecl[];
} {
  const { variables, functions } = declsFromJson(typeEnv.map((decl) => markMessages(decl) as JsonObject));
  return {
    variables: variables.map((v) => ({ ...v, type: unmark(v.type) })),
    functions: functions.map((fn) => ({
      ...fn,
      overloads: fn.overloads.map((o) => ({ ...o, params: o.params.map(unmark), result: unmark(o.result) })),
    })),
  };
}

/** Known message types pass through proto-json's converter as abstract types named with a mark. */
function markMessages(json: JsonValue): JsonValue {
  if (Array.isArray(json)) return json.map(markMessages);
  if (typeof json !== "object" || json === null) return json;
  if (typeof json.messageType === "string" && MESSAGES.has(json.messageType)) {
    return { abstractType: { name: `${MESSAGE_MARK}${json.messageType}` } };
  }
  return Object.fromEntries(Object.entries(json).map(([k, v]) => [k, markMessages(v)]));
}

function unmark(type: CelType): CelType {
  switch (type.kind) {
    case "opaque":
      return type.name.startsWith(MESSAGE_MARK)
        ? (MESSAGES.get(type.name.slice(MESSAGE_MARK.length)) as CelType)
        : { ...type, params: type.params.map(unmark) };
    case "list":
      return listType(unmark(type.elem));
    case "map":
      return mapType(unmark(type.key), unmark(type.value));
    case "type":
      return typeOfType(unmark(type.type));
    default:
      return type;
  }
}
