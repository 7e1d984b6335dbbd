// Kubernetes' quantity library (k8s.io/apiserver/pkg/cel/library/quantity.go, "kubernetes.quantity",
// from 1.28): the `kubernetes.Quantity` type, `quantity(string)`, `isQuantity`, `sign` (a global
// function, as Kubernetes declares it), the int and float views and exact comparison and arithmetic.

import { BoolType, DoubleType, IntType, opaqueType, StringType } from "../../common/cel-types.js";
import type { CelLibrary, FunctionDecl, OverloadImpl } from "../../common/decls.js";
import { CelError, CelOpaque, type CelValue } from "../../common/values.js";
import { parsesStringArgument } from "../kubernetes-cost.js";
import { declareFunction, globalOverload, memberOverload } from "../standard/declare.js";
import { noSuchOverload } from "../standard/overload-errors.js";
import { parsedValue } from "./parsed.js";
import {
  addQuantities,
  compareQuantities,
  parseQuantity,
  type Quantity,
  QuantityRangeError,
  quantityAsFloat,
  quantityAsInt64,
  quantityFromInt,
  quantitySign,
  subtractQuantities,
} from "./resource-quantity.js";

export const QuantityType = opaqueType("kubernetes.Quantity");

/** A resource.Quantity value; equal when the amounts are. */
export class QuantityValue extends CelOpaque {
  readonly celType = QuantityType;
  constructor(readonly quantity: Quantity) {
    super();
  }
  equals(other: CelValue): boolean {
    return other instanceof QuantityValue && compareQuantities(this.quantity, other.quantity) === 0;
  }
}

/** `quantity(string)`: the quantity, or ParseQuantity's error. */
export function stringToQuantity(s: CelValue): CelValue {
  return parsedValue(s, parseQuantity, QuantityValue);
}

function unary(read: (q: Quantity) => CelValue): OverloadImpl {
  return ([q]) => (q instanceof QuantityValue ? read(q.quantity) : noSuchOverload());
}

function binary(combine: (a: Quantity, b: Quantity) => CelValue): OverloadImpl {
  return ([a, b]) =>
    a instanceof QuantityValue && b instanceof QuantityValue ? combine(a.quantity, b.quantity) : noSuchOverload();
}

type Arithmetic = (a: Quantity, b: Quantity) => Quantity;

/** An arithmetic result as a value; an operation kapi refuses to expand without bound becomes an error. */
function arithmetic(combine: Arithmetic, a: Quantity, b: Quantity): CelValue {
  try {
    return new QuantityValue(combine(a, b));
  } catch (e) {
    if (e instanceof QuantityRangeError) return new CelError(e.message);
    throw e;
  }
}

/** `q.add(q2)` / `q.sub(q2)`. */
function withQuantity(combine: Arithmetic): OverloadImpl {
  return ([a, b]) =>
    a instanceof QuantityValue && b instanceof QuantityValue
      ? arithmetic(combine, a.quantity, b.quantity)
      : noSuchOverload();
}

/** `q.add(n)` / `q.sub(n)`: the int as a quantity of scale 0. */
function withInt(combine: Arithmetic): OverloadImpl {
  return ([a, n]) =>
    a instanceof QuantityValue && typeof n === "bigint"
      ? arithmetic(combine, a.quantity, quantityFromInt(n))
      : noSuchOverload();
}

const Q = QuantityType;

const functions: FunctionDecl[] = [
  declareFunction(
    "quantity",
    globalOverload(
      "string_to_quantity",
      [StringType],
      Q,
      ([s]) => stringToQuantity(s as CelValue),
      parsesStringArgument(),
    ),
  ),
  declareFunction(
    "isQuantity",
    globalOverload(
      "is_quantity_string",
      [StringType],
      BoolType,
      ([s]) => (typeof s === "string" ? parseQuantity(s).ok : noSuchOverload()),
      parsesStringArgument(),
    ),
  ),
  declareFunction(
    "sign",
    globalOverload(
      "quantity_sign",
      [Q],
      IntType,
      unary((q) => BigInt(quantitySign(q))),
    ),
  ),
  declareFunction(
    "isGreaterThan",
    memberOverload(
      "quantity_is_greater_than",
      [Q, Q],
      BoolType,
      binary((a, b) => compareQuantities(a, b) === 1),
    ),
  ),
  declareFunction(
    "isLessThan",
    memberOverload(
      "quantity_is_less_than",
      [Q, Q],
      BoolType,
      binary((a, b) => compareQuantities(a, b) === -1),
    ),
  ),
  declareFunction(
    "compareTo",
    memberOverload(
      "quantity_compare_to",
      [Q, Q],
      IntType,
      binary((a, b) => BigInt(compareQuantities(a, b))),
    ),
  ),
  declareFunction("asApproximateFloat", memberOverload("quantity_get_float", [Q], DoubleType, unary(quantityAsFloat))),
  declareFunction(
    "asInteger",
    memberOverload(
      "quantity_get_int",
      [Q],
      IntType,
      unary((q) => quantityAsInt64(q) ?? new CelError("cannot convert value to integer")),
    ),
  ),
  declareFunction(
    "isInteger",
    memberOverload(
      "quantity_is_integer",
      [Q],
      BoolType,
      unary((q) => quantityAsInt64(q) !== undefined),
    ),
  ),
  declareFunction(
    "add",
    memberOverload("quantity_add", [Q, Q], Q, withQuantity(addQuantities)),
    memberOverload("quantity_add_int", [Q, IntType], Q, withInt(addQuantities)),
  ),
  declareFunction(
    "sub",
    memberOverload("quantity_sub", [Q, Q], Q, withQuantity(subtractQuantities)),
    memberOverload("quantity_sub_int", [Q, IntType], Q, withInt(subtractQuantities)),
  ),
];

export const quantityLibrary: CelLibrary = { name: "kubernetes.quantity", functions, types: [QuantityType] };
