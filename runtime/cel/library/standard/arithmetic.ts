// Arithmetic operators: int64 and uint64 with overflow errors (`integer overflow`, `unsigned integer
// overflow`, `division by zero`, `modulus by zero`), IEEE doubles, concatenation of strings, bytes
// and lists, and timestamp/duration arithmetic.

import {
  BytesType,
  DoubleType,
  DurationType,
  IntType,
  listType,
  StringType,
  TimestampType,
  typeParam,
  UintType,
} from "../../common/cel-types.js";
import type { FunctionDecl, OverloadImpl } from "../../common/decls.js";
import {
  CelDuration,
  CelList,
  CelTimestamp,
  CelUint,
  type CelValue,
  INT64_MAX,
  INT64_MIN,
  UINT64_MAX,
} from "../../common/values.js";
import { concatLists } from "./containers.js";
import { declareFunction, generic, globalOverload } from "./declare.js";
import { addDurations, subtractDurations } from "./durations.js";
import { divisionByZero, intOverflow, modulusByZero, noSuchOverload, uintOverflow } from "./overload-errors.js";
import { concatCost, listConcatCost } from "./standard-cost.js";
import { addToTimestamp, subtractFromTimestamp, timestampDifference } from "./standard-timestamps.js";
import { concatBytes } from "./text.js";

function checkedInt(n: bigint): CelValue {
  return n < INT64_MIN || n > INT64_MAX ? intOverflow() : n;
}

function checkedUint(n: bigint): CelValue {
  return n < 0n || n > UINT64_MAX ? uintOverflow() : new CelUint(n);
}

function ints(op: (a: bigint, b: bigint) => CelValue): OverloadImpl {
  return (args) => {
    const a = args[0];
    const b = args[1];
    return typeof a === "bigint" && typeof b === "bigint" ? op(a, b) : noSuchOverload();
  };
}

function uints(op: (a: bigint, b: bigint) => CelValue): OverloadImpl {
  return (args) => {
    const a = args[0];
    const b = args[1];
    return a instanceof CelUint && b instanceof CelUint ? op(a.value, b.value) : noSuchOverload();
  };
}

function doubles(op: (a: number, b: number) => number): OverloadImpl {
  return (args) => {
    const a = args[0];
    const b = args[1];
    return typeof a === "number" && typeof b === "number" ? op(a, b) : noSuchOverload();
  };
}

/** A binary operator on two values of classes (or JS types) checked by the guards. */
function pair<L, R>(
  isLeft: (v: CelValue) => v is CelValue & L,
  isRight: (v: CelValue) => v is CelValue & R,
  op: (a: L, b: R) => CelValue,
): OverloadImpl {
  return (args) => {
    const a = args[0] as CelValue;
    const b = args[1] as CelValue;
    return isLeft(a) && isRight(b) ? op(a, b) : noSuchOverload();
  };
}

const isString = (v: CelValue): v is string => typeof v === "string";
const isBytes = (v: CelValue): v is Uint8Array => v instanceof Uint8Array;
const isList = (v: CelValue): v is CelList => v instanceof CelList;
const isTimestamp = (v: CelValue): v is CelTimestamp => v instanceof CelTimestamp;
const isDuration = (v: CelValue): v is CelDuration => v instanceof CelDuration;

const A = typeParam("A");

export const arithmeticFunctions: readonly FunctionDecl[] = [
  declareFunction(
    "_+_",
    globalOverload("add_bytes", [BytesType, BytesType], BytesType, pair(isBytes, isBytes, concatBytes), concatCost),
    globalOverload(
      "add_double",
      [DoubleType, DoubleType],
      DoubleType,
      doubles((a, b) => a + b),
    ),
    globalOverload(
      "add_duration_duration",
      [DurationType, DurationType],
      DurationType,
      pair(isDuration, isDuration, addDurations),
    ),
    globalOverload(
      "add_duration_timestamp",
      [DurationType, TimestampType],
      TimestampType,
      pair(isDuration, isTimestamp, (d, t) => addToTimestamp(t, d)),
    ),
    globalOverload(
      "add_timestamp_duration",
      [TimestampType, DurationType],
      TimestampType,
      pair(isTimestamp, isDuration, addToTimestamp),
    ),
    globalOverload(
      "add_int64",
      [IntType, IntType],
      IntType,
      ints((a, b) => checkedInt(a + b)),
    ),
    generic(
      ["A"],
      globalOverload(
        "add_list",
        [listType(A), listType(A)],
        listType(A),
        pair(isList, isList, concatLists),
        listConcatCost,
      ),
    ),
    globalOverload(
      "add_string",
      [StringType, StringType],
      StringType,
      pair(isString, isString, (a, b) => a + b),
      concatCost,
    ),
    globalOverload(
      "add_uint64",
      [UintType, UintType],
      UintType,
      uints((a, b) => checkedUint(a + b)),
    ),
  ),
  declareFunction(
    "_/_",
    globalOverload(
      "divide_double",
      [DoubleType, DoubleType],
      DoubleType,
      doubles((a, b) => a / b),
    ),
    globalOverload(
      "divide_int64",
      [IntType, IntType],
      IntType,
      ints((a, b) => (b === 0n ? divisionByZero() : checkedInt(a / b))),
    ),
    globalOverload(
      "divide_uint64",
      [UintType, UintType],
      UintType,
      uints((a, b) => (b === 0n ? divisionByZero() : new CelUint(a / b))),
    ),
  ),
  declareFunction(
    "_%_",
    globalOverload(
      "modulo_int64",
      [IntType, IntType],
      IntType,
      // MinInt64 % -1 overflows in two's complement, and cel-go reports it.
      ints((a, b) => (b === 0n ? modulusByZero() : a === INT64_MIN && b === -1n ? intOverflow() : a % b)),
    ),
    globalOverload(
      "modulo_uint64",
      [UintType, UintType],
      UintType,
      uints((a, b) => (b === 0n ? modulusByZero() : new CelUint(a % b))),
    ),
  ),
  declareFunction(
    "_*_",
    globalOverload(
      "multiply_double",
      [DoubleType, DoubleType],
      DoubleType,
      doubles((a, b) => a * b),
    ),
    globalOverload(
      "multiply_int64",
      [IntType, IntType],
      IntType,
      ints((a, b) => checkedInt(a * b)),
    ),
    globalOverload(
      "multiply_uint64",
      [UintType, UintType],
      UintType,
      uints((a, b) => checkedUint(a * b)),
    ),
  ),
  declareFunction(
    "-_",
    globalOverload("negate_double", [DoubleType], DoubleType, (args) => {
      const a = args[0];
      return typeof a === "number" ? -a : noSuchOverload();
    }),
    globalOverload("negate_int64", [IntType], IntType, (args) => {
      const a = args[0];
      return typeof a === "bigint" ? checkedInt(-a) : noSuchOverload();
    }),
  ),
  declareFunction(
    "_-_",
    globalOverload(
      "subtract_double",
      [DoubleType, DoubleType],
      DoubleType,
      doubles((a, b) => a - b),
    ),
    globalOverload(
      "subtract_duration_duration",
      [DurationType, DurationType],
      DurationType,
      pair(isDuration, isDuration, subtractDurations),
    ),
    globalOverload(
      "subtract_int64",
      [IntType, IntType],
      IntType,
      ints((a, b) => checkedInt(a - b)),
    ),
    globalOverload(
      "subtract_timestamp_duration",
      [TimestampType, DurationType],
      TimestampType,
      pair(isTimestamp, isDuration, subtractFromTimestamp),
    ),
    globalOverload(
      "subtract_timestamp_timestamp",
      [TimestampType, TimestampType],
      DurationType,
      pair(isTimestamp, isTimestamp, timestampDifference),
    ),
    globalOverload(
      "subtract_uint64",
      [UintType, UintType],
      UintType,
      uints((a, b) => checkedUint(a - b)),
    ),
  ),
];
