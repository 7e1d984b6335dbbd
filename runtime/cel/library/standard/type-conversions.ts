// Type conversions: int, uint, double, string, bytes, bool, timestamp, duration, plus type() and
// dyn(), with cel-go's overload ids and results: range errors as "integer overflow" / "unsigned
// integer overflow", unparsable text as "type conversion error from 'string' to '<type>'".

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
  StringType,
  TimestampType,
  TypeType,
  typeOfType,
  typeParam,
  UintType,
} from "../../common/cel-types.js";
import type { FunctionDecl, OverloadImpl } from "../../common/decls.js";
import {
  CelDuration,
  CelError,
  CelTimestamp,
  CelTypeValue,
  CelUint,
  type CelValue,
  INT64_MAX,
  typeOfValue,
} from "../../common/values.js";
import { declareFunction, generic, globalOverload } from "./declare.js";
import { formatDuration, parseDuration } from "./durations.js";
import { formatDouble, parseBool, parseFloat64, parseInt64, parseUint64 } from "./number-text.js";
import { conversionError, intOverflow, noSuchOverload, uintOverflow } from "./overload-errors.js";
import { transcodeCost } from "./standard-cost.js";
import { formatTimestamp, parseTimestamp, timestampFromSeconds } from "./standard-timestamps.js";
import { utf8Decode, utf8Encode } from "./text.js";

const A = typeParam("A");
const TWO_TO_63 = 2 ** 63;
const TWO_TO_64 = 2 ** 64;

/** An implementation for one argument of a known JS type; other arguments are "no such overload". */
function unary<T extends CelValue>(accepts: (v: CelValue) => v is T, convert: (v: T) => CelValue): OverloadImpl {
  return (args) => {
    const v = args[0] as CelValue;
    return accepts(v) ? convert(v) : noSuchOverload();
  };
}

const isBool = (v: CelValue): v is boolean => typeof v === "boolean";
const isInt = (v: CelValue): v is bigint => typeof v === "bigint";
const isUint = (v: CelValue): v is CelUint => v instanceof CelUint;
const isDouble = (v: CelValue): v is number => typeof v === "number";
const isString = (v: CelValue): v is string => typeof v === "string";
const isBytes = (v: CelValue): v is Uint8Array => v instanceof Uint8Array;
const isTimestamp = (v: CelValue): v is CelTimestamp => v instanceof CelTimestamp;
const isDuration = (v: CelValue): v is CelDuration => v instanceof CelDuration;

const identity = <T extends CelValue>(accepts: (v: CelValue) => v is T): OverloadImpl => unary(accepts, (v) => v);

function doubleToInt(x: number): CelValue {
  // float64(MinInt64) itself is refused, as cel-go's doubleToInt64Checked does.
  if (Number.isNaN(x) || x <= -TWO_TO_63 || x >= TWO_TO_63) return intOverflow();
  return BigInt(Math.trunc(x));
}

function doubleToUint(x: number): CelValue {
  if (Number.isNaN(x) || x < 0 || x >= TWO_TO_64) return uintOverflow();
  return new CelUint(BigInt(Math.trunc(x)));
}

/**
 * The type a value reports at run time: list and map types lose their parameters and the type of a
 * type is `type`, as in cel-go, so `type([1]) == type(['a'])`.
 */
export function runtimeType(value: CelValue): CelType {
  const t = typeOfValue(value);
  switch (t.kind) {
    case "list":
      return listType(DynType);
    case "map":
      return mapType(DynType, DynType);
    case "type":
      return TypeType;
    default:
      return t;
  }
}

const invalidUtf8 = (): CelError => new CelError("invalid UTF-8 in bytes, cannot convert to string");

export const conversionFunctions: readonly FunctionDecl[] = [
  declareFunction(
    "type",
    generic(
      ["A"],
      globalOverload("type", [A], typeOfType(A), (args) => new CelTypeValue(runtimeType(args[0] as CelValue))),
    ),
  ),
  declareFunction(
    "bool",
    globalOverload("bool_to_bool", [BoolType], BoolType, identity(isBool)),
    globalOverload(
      "string_to_bool",
      [StringType],
      BoolType,
      unary(isString, (s) => parseBool(s) ?? conversionError("string", "bool")),
    ),
  ),
  declareFunction(
    "bytes",
    globalOverload("bytes_to_bytes", [BytesType], BytesType, identity(isBytes)),
    globalOverload(
      "string_to_bytes",
      [StringType],
      BytesType,
      unary(isString, utf8Encode),
      transcodeCost((s) => ({ min: s.min, max: s.max * 4 })),
    ),
  ),
  declareFunction(
    "double",
    globalOverload("double_to_double", [DoubleType], DoubleType, identity(isDouble)),
    globalOverload("int64_to_double", [IntType], DoubleType, unary(isInt, Number)),
    globalOverload(
      "string_to_double",
      [StringType],
      DoubleType,
      unary(isString, (s) => parseFloat64(s) ?? conversionError("string", "double")),
    ),
    globalOverload(
      "uint64_to_double",
      [UintType],
      DoubleType,
      unary(isUint, (u) => Number(u.value)),
    ),
  ),
  declareFunction(
    "duration",
    globalOverload("duration_to_duration", [DurationType], DurationType, identity(isDuration)),
    // Declared by cel-go, but its integers do not convert to durations at run time.
    globalOverload(
      "int64_to_duration",
      [IntType],
      DurationType,
      unary(isInt, () => conversionError("int", "google.protobuf.Duration")),
    ),
    globalOverload("string_to_duration", [StringType], DurationType, unary(isString, parseDuration)),
  ),
  declareFunction(
    "dyn",
    generic(
      ["A"],
      globalOverload("to_dyn", [A], DynType, (args) => args[0] as CelValue),
    ),
  ),
  declareFunction(
    "int",
    globalOverload("int64_to_int64", [IntType], IntType, identity(isInt)),
    globalOverload("double_to_int64", [DoubleType], IntType, unary(isDouble, doubleToInt)),
    globalOverload(
      "duration_to_int64",
      [DurationType],
      IntType,
      unary(isDuration, (d) => d.nanos),
    ),
    globalOverload(
      "string_to_int64",
      [StringType],
      IntType,
      unary(isString, (s) => parseInt64(s) ?? conversionError("string", "int")),
    ),
    globalOverload(
      "timestamp_to_int64",
      [TimestampType],
      IntType,
      unary(isTimestamp, (t) => t.seconds),
    ),
    globalOverload(
      "uint64_to_int64",
      [UintType],
      IntType,
      unary(isUint, (u) => (u.value > INT64_MAX ? intOverflow() : u.value)),
    ),
  ),
  declareFunction(
    "string",
    globalOverload("string_to_string", [StringType], StringType, identity(isString)),
    globalOverload("bool_to_string", [BoolType], StringType, unary(isBool, String)),
    globalOverload(
      "bytes_to_string",
      [BytesType],
      StringType,
      unary(isBytes, (b) => utf8Decode(b) ?? invalidUtf8()),
      transcodeCost((s) => ({ min: Math.floor(s.min / 4), max: s.max })),
    ),
    globalOverload("double_to_string", [DoubleType], StringType, unary(isDouble, formatDouble)),
    globalOverload("duration_to_string", [DurationType], StringType, unary(isDuration, formatDuration)),
    globalOverload("int64_to_string", [IntType], StringType, unary(isInt, String)),
    globalOverload("timestamp_to_string", [TimestampType], StringType, unary(isTimestamp, formatTimestamp)),
    globalOverload(
      "uint64_to_string",
      [UintType],
      StringType,
      unary(isUint, (u) => String(u.value)),
    ),
  ),
  declareFunction(
    "timestamp",
    globalOverload("timestamp_to_timestamp", [TimestampType], TimestampType, identity(isTimestamp)),
    globalOverload("int64_to_timestamp", [IntType], TimestampType, unary(isInt, timestampFromSeconds)),
    globalOverload("string_to_timestamp", [StringType], TimestampType, unary(isString, parseTimestamp)),
  ),
  declareFunction(
    "uint",
    globalOverload("uint64_to_uint64", [UintType], UintType, identity(isUint)),
    globalOverload("double_to_uint64", [DoubleType], UintType, unary(isDouble, doubleToUint)),
    globalOverload(
      "int64_to_uint64",
      [IntType],
      UintType,
      unary(isInt, (i) => (i < 0n ? uintOverflow() : new CelUint(i))),
    ),
    globalOverload(
      "string_to_uint64",
      [StringType],
      UintType,
      unary(isString, (s) => {
        const n = parseUint64(s);
        return n === undefined ? conversionError("string", "uint") : new CelUint(n);
      }),
    ),
  ),
];
