// Type names usable as values (`type(x) == int`) and as message names (`google.protobuf.Timestamp{…}`),
// as cel-go's standard declarations and protobuf type provider make them available.
import {
  BoolType,
  BytesType,
  type CelType,
  DoubleType,
  DurationType,
  IntType,
  listType,
  mapType,
  NullType,
  StringType,
  TimestampType,
  TypeType,
  typeOfType,
  typeParam,
  UintType,
} from "../common/cel-types.js";

/** cel-go's stdlib type identifiers: each name's type is the type of that type (`int` is a `type(int)`). */
export const STANDARD_TYPE_IDENTIFIERS: ReadonlyMap<string, CelType> = new Map(
  [
    ["bool", BoolType],
    ["bytes", BytesType],
    ["double", DoubleType],
    ["google.protobuf.Duration", DurationType],
    ["int", IntType],
    ["list", listType(typeParam("A"))],
    ["map", mapType(typeParam("A"), typeParam("B"))],
    ["null_type", NullType],
    ["string", StringType],
    ["google.protobuf.Timestamp", TimestampType],
    ["type", TypeType],
    ["uint", UintType],
  ].map(([name, type]) => [name as string, typeOfType(type as CelType)]),
);

/**
 * The protobuf message name of a well-known type, which cel-go lets a message literal construct
 * (`google.protobuf.Timestamp{seconds: 1}`); list and map types qualify only as ListValue and Struct.
 */
export function wellKnownMessageName(type: CelType): string | undefined {
  switch (type.kind) {
    case "any":
      return "google.protobuf.Any";
    case "timestamp":
      return "google.protobuf.Timestamp";
    case "duration":
      return "google.protobuf.Duration";
    case "dyn":
      return "google.protobuf.Value";
    case "null_type":
      return "google.protobuf.NullValue";
    case "list":
      return type.elem.kind === "dyn" ? "google.protobuf.ListValue" : undefined;
    case "map":
      return type.key.kind === "string" && type.value.kind === "dyn" ? "google.protobuf.Struct" : undefined;
    default:
      return undefined;
  }
}

const SECONDS_AND_NANOS: ReadonlyMap<string, CelType> = new Map([
  ["seconds", IntType],
  ["nanos", IntType],
]);

/** Fields of the well-known messages a literal can set: `google.protobuf.Timestamp{seconds: 1}`. */
export const WELL_KNOWN_MESSAGE_FIELDS: ReadonlyMap<string, ReadonlyMap<string, CelType>> = new Map([
  ["google.protobuf.Timestamp", SECONDS_AND_NANOS],
  ["google.protobuf.Duration", SECONDS_AND_NANOS],
]);
