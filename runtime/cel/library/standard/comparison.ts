// Equality and ordering: `==` / `!=` on any two values (CEL's heterogeneous equality), `<` `<=` `>`
// `>=` on bools, numbers of any mix of int, uint and double (compared exactly; NaN cannot be ordered),
// strings (by code point), bytes, timestamps and durations.

import {
  BoolType,
  BytesType,
  type CelType,
  DoubleType,
  DurationType,
  IntType,
  StringType,
  TimestampType,
  typeParam,
  UintType,
} from "../../common/cel-types.js";
import type { FunctionDecl, OverloadCost, OverloadImpl } from "../../common/decls.js";
import { celEquals, compareNumbers } from "../../common/equality.js";
import { CelDuration, CelError, CelTimestamp, CelUint, type CelValue } from "../../common/values.js";
import { declareFunction, generic, globalOverload } from "./declare.js";
import { compareDurations } from "./durations.js";
import { nanNotOrdered, noSuchOverload } from "./overload-errors.js";
import { comparisonCost } from "./standard-cost.js";
import { compareTimestamps } from "./standard-timestamps.js";
import { compareBytes, compareStrings } from "./text.js";

/** -1, 0 or 1; an error for operands that cannot be ordered. */
type Order = (a: CelValue, b: CelValue) => number | CelError;

function sign<T>(a: T, b: T): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const orderBools: Order = (a, b) => (typeof a === "boolean" && typeof b === "boolean" ? sign(a, b) : noSuchOverload());
const orderUints: Order = (a, b) =>
  a instanceof CelUint && b instanceof CelUint ? sign(a.value, b.value) : noSuchOverload();
const orderDoubles: Order = (a, b) => {
  if (typeof a !== "number" || typeof b !== "number") return noSuchOverload();
  return Number.isNaN(a) || Number.isNaN(b) ? nanNotOrdered() : sign(a, b);
};

/** cel-go's numeric ordering: int and uint exactly, an integer rounded to double against a double. */
const orderMixedNumbers: Order = (a, b) => {
  const c = compareNumbers(a, b);
  if (c === undefined) return noSuchOverload();
  return Number.isNaN(c) ? nanNotOrdered() : c;
};

const orderStrings: Order = (a, b) =>
  typeof a === "string" && typeof b === "string" ? compareStrings(a, b) : noSuchOverload();
const orderBytes: Order = (a, b) =>
  a instanceof Uint8Array && b instanceof Uint8Array ? compareBytes(a, b) : noSuchOverload();
const orderTimestamps: Order = (a, b) =>
  a instanceof CelTimestamp && b instanceof CelTimestamp ? compareTimestamps(a, b) : noSuchOverload();
const orderDurations: Order = (a, b) =>
  a instanceof CelDuration && b instanceof CelDuration ? compareDurations(a, b) : noSuchOverload();

interface Operands {
  /** The overload id suffix: `int64_double` in `less_int64_double`. */
  readonly suffix: string;
  readonly left: CelType;
  readonly right: CelType;
  readonly order: Order;
  readonly cost?: OverloadCost;
}

// In cel-go's declaration order.
const ORDERED: readonly Operands[] = [
  { suffix: "bool", left: BoolType, right: BoolType, order: orderBools },
  { suffix: "int64", left: IntType, right: IntType, order: orderMixedNumbers },
  { suffix: "int64_double", left: IntType, right: DoubleType, order: orderMixedNumbers },
  { suffix: "int64_uint64", left: IntType, right: UintType, order: orderMixedNumbers },
  { suffix: "uint64", left: UintType, right: UintType, order: orderUints },
  { suffix: "uint64_double", left: UintType, right: DoubleType, order: orderMixedNumbers },
  { suffix: "uint64_int64", left: UintType, right: IntType, order: orderMixedNumbers },
  { suffix: "double", left: DoubleType, right: DoubleType, order: orderDoubles },
  { suffix: "double_int64", left: DoubleType, right: IntType, order: orderMixedNumbers },
  { suffix: "double_uint64", left: DoubleType, right: UintType, order: orderMixedNumbers },
  { suffix: "string", left: StringType, right: StringType, order: orderStrings, cost: comparisonCost },
  { suffix: "bytes", left: BytesType, right: BytesType, order: orderBytes, cost: comparisonCost },
  { suffix: "timestamp", left: TimestampType, right: TimestampType, order: orderTimestamps },
  { suffix: "duration", left: DurationType, right: DurationType, order: orderDurations },
];

/**
 * `int < int` and friends written out: Kubernetes rules compare integers most, and a shared generic
 * implementation would make their call sites megamorphic.
 */
const INT64_RELATIONS: Readonly<Record<string, OverloadImpl>> = {
  less: (args) => {
    const a = args[0];
    const b = args[1];
    return typeof a === "bigint" && typeof b === "bigint" ? a < b : noSuchOverload();
  },
  less_equals: (args) => {
    const a = args[0];
    const b = args[1];
    return typeof a === "bigint" && typeof b === "bigint" ? a <= b : noSuchOverload();
  },
  greater: (args) => {
    const a = args[0];
    const b = args[1];
    return typeof a === "bigint" && typeof b === "bigint" ? a > b : noSuchOverload();
  },
  greater_equals: (args) => {
    const a = args[0];
    const b = args[1];
    return typeof a === "bigint" && typeof b === "bigint" ? a >= b : noSuchOverload();
  },
};

function relation(name: string, idPrefix: string, holds: (order: number) => boolean): FunctionDecl {
  return declareFunction(
    name,
    ...ORDERED.map(({ suffix, left, right, order, cost }) => {
      const byOrder: OverloadImpl = (args) => {
        const c = order(args[0] as CelValue, args[1] as CelValue);
        return c instanceof CelError ? c : holds(c);
      };
      const impl = suffix === "int64" ? (INT64_RELATIONS[idPrefix] ?? byOrder) : byOrder;
      return globalOverload(`${idPrefix}_${suffix}`, [left, right], BoolType, impl, cost);
    }),
  );
}

const A = typeParam("A");

export const comparisonFunctions: readonly FunctionDecl[] = [
  declareFunction(
    "_==_",
    generic(
      ["A"],
      globalOverload(
        "equals",
        [A, A],
        BoolType,
        (args) => celEquals(args[0] as CelValue, args[1] as CelValue),
        comparisonCost,
      ),
    ),
  ),
  declareFunction(
    "_!=_",
    generic(
      ["A"],
      globalOverload(
        "not_equals",
        [A, A],
        BoolType,
        (args) => !celEquals(args[0] as CelValue, args[1] as CelValue),
        comparisonCost,
      ),
    ),
  ),
  relation("_<_", "less", (c) => c < 0),
  relation("_<=_", "less_equals", (c) => c <= 0),
  relation("_>_", "greater", (c) => c > 0),
  relation("_>=_", "greater_equals", (c) => c >= 0),
];
