// Kubernetes' lists library (k8s.io/apiserver/pkg/cel/library/lists.go): `isSorted`, `min`, `max` on
// lists of comparable values, `sum` on numbers and durations, `indexOf` / `lastIndexOf` by CEL
// equality. An overload per element type declares them, but one implementation serves all, because a
// list typed `list(dyn)` reaches the first overload whatever it holds: like cel-go, ordering skips pairs
// it cannot compare, and an element that cannot be ordered at all is "no such overload".

import {
  BoolType,
  BytesType,
  type CelType,
  DoubleType,
  DurationType,
  IntType,
  listType,
  StringType,
  TimestampType,
  typeParam,
  UintType,
} from "../../common/cel-types.js";
import type { CelLibrary, CostEstimate, FunctionDecl, OverloadCost, SizeEstimate } from "../../common/decls.js";
import { celEquals, compareNumbers } from "../../common/equality.js";
import {
  CelDuration,
  CelError,
  type CelList,
  CelTimestamp,
  CelUint,
  type CelValue,
  INT64_MAX,
  INT64_MIN,
  UINT64_MAX,
} from "../../common/values.js";
import { type CallEstimateContext, dataTraversalCost, multiplyEstimates } from "../kubernetes-call-cost.js";
import {
  addCosts,
  multiplyByCostFactor,
  STRING_TRAVERSAL_COST_FACTOR,
  sizeOf,
  traversalEstimate,
} from "../kubernetes-cost.js";
import { declareFunction, memberOverload } from "../standard/declare.js";
import { addDurations, compareDurations } from "../standard/durations.js";
import { intOverflow, noSuchOverload, uintOverflow } from "../standard/overload-errors.js";
import { compareTimestamps } from "../standard/standard-timestamps.js";
import { compareBytes, compareStrings } from "../standard/text.js";

function isComparable(v: CelValue): boolean {
  switch (typeof v) {
    case "bigint":
    case "number":
    case "boolean":
    case "string":
      return true;
    default:
      return v instanceof CelUint || v instanceof Uint8Array || v instanceof CelDuration || v instanceof CelTimestamp;
  }
}

/** cel-go's Comparer.Compare: -1, 0 or 1, or undefined for values of kinds that do not order together (or NaN). */
function compare(a: CelValue, b: CelValue): number | undefined {
  const numeric = compareNumbers(a, b);
  if (numeric !== undefined) return Number.isNaN(numeric) ? undefined : numeric;
  if (typeof a === "boolean" && typeof b === "boolean") return a === b ? 0 : a ? 1 : -1;
  if (typeof a === "string" && typeof b === "string") return compareStrings(a, b);
  if (a instanceof Uint8Array && b instanceof Uint8Array) return compareBytes(a, b);
  if (a instanceof CelDuration && b instanceof CelDuration) return compareDurations(a, b);
  if (a instanceof CelTimestamp && b instanceof CelTimestamp) return compareTimestamps(a, b);
  return undefined;
}

function isSorted(list: CelList): CelValue {
  let prev: CelValue | undefined;
  for (let i = 0; i < list.size; i++) {
    const item = list.get(i);
    if (!isComparable(item)) return noSuchOverload();
    if (prev !== undefined && compare(prev, item) === 1) return false;
    prev = item;
  }
  return true;
}

/** min (prefer = 1: a later element is smaller) or max (prefer = -1). */
function extreme(list: CelList, name: string, prefer: number): CelValue {
  let best: CelValue | undefined;
  for (let i = 0; i < list.size; i++) {
    const item = list.get(i);
    if (!isComparable(item)) return noSuchOverload();
    if (best === undefined || compare(best, item) === prefer) best = item;
  }
  return best === undefined ? new CelError(`${name} called on empty list`) : best;
}

/** The `+` of two summable values of the same kind. */
function add(a: CelValue, b: CelValue): CelValue {
  if (typeof a === "bigint" && typeof b === "bigint") {
    const n = a + b;
    return n < INT64_MIN || n > INT64_MAX ? intOverflow() : n;
  }
  if (a instanceof CelUint && b instanceof CelUint) {
    const n = a.value + b.value;
    return n > UINT64_MAX ? uintOverflow() : new CelUint(n);
  }
  if (typeof a === "number" && typeof b === "number") return a + b;
  if (a instanceof CelDuration && b instanceof CelDuration) return addDurations(a, b);
  return noSuchOverload();
}

function sum(list: CelList, zero: CelValue): CelValue {
  let total = zero;
  for (let i = 0; i < list.size; i++) {
    total = add(total, list.get(i));
    if (total instanceof CelError) return total;
  }
  return total;
}

function indexOf(list: CelList, item: CelValue): bigint {
  for (let i = 0; i < list.size; i++) if (celEquals(list.get(i), item)) return BigInt(i);
  return -1n;
}

function lastIndexOf(list: CelList, item: CelValue): bigint {
  for (let i = list.size - 1; i >= 0; i--) if (celEquals(list.get(i), item)) return BigInt(i);
  return -1n;
}

// ---- Cost: one comparison per element, plus a traversal of each element that is a string or bytes.

function isTextual(type: CelType | undefined): boolean {
  return type?.kind === "string" || type?.kind === "bytes";
}

function listEstimate(
  list: SizeEstimate | undefined,
  elementIsText: boolean,
  elementSize: SizeEstimate | undefined,
): CostEstimate {
  const perElement = elementIsText
    ? addCosts({ min: 1, max: 1 }, multiplyByCostFactor(sizeOf(elementSize), STRING_TRAVERSAL_COST_FACTOR))
    : { min: 1, max: 1 };
  return multiplyEstimates(sizeOf(list), perElement);
}

function elementCost(element: CelType): OverloadCost {
  return {
    estimate: (args, _result?: SizeEstimate, context?: CallEstimateContext) =>
      listEstimate(args[0], isTextual(element), context?.elementSize(0)),
    actual: (args) => dataTraversalCost(args[0] as CelValue),
  };
}

/** indexOf / lastIndexOf: the element type comes from the checked receiver; a receiver that is not a list counts as text. */
const searchCost: OverloadCost = {
  estimate: (args, _result?: SizeEstimate, context?: CallEstimateContext) => {
    const receiver = context?.argTypes[0];
    if (receiver !== undefined && receiver.kind !== "list") return traversalEstimate(args[0]);
    return listEstimate(
      args[0],
      isTextual(receiver?.kind === "list" ? receiver.elem : undefined),
      context?.elementSize(0),
    );
  },
  actual: (args) => dataTraversalCost(args[0] as CelValue),
};

// ---- Declarations, in Kubernetes' order.

const COMPARABLE: readonly [string, CelType][] = [
  ["int", IntType],
  ["uint", UintType],
  ["double", DoubleType],
  ["bool", BoolType],
  ["duration", DurationType],
  ["timestamp", TimestampType],
  ["string", StringType],
  ["bytes", BytesType],
];

const SUMMABLE: readonly [string, CelType, CelValue][] = [
  ["int", IntType, 0n],
  ["uint", UintType, new CelUint(0n)],
  ["double", DoubleType, 0],
  ["duration", DurationType, new CelDuration(0n)],
];

const A = typeParam("A");

function list(v: CelValue | undefined): CelList {
  return v as CelList;
}

function extremeFunction(name: "min" | "max", prefer: number): FunctionDecl {
  return declareFunction(
    name,
    ...COMPARABLE.map(([typeName, type]) =>
      memberOverload(
        `list_${typeName}_${name}_${typeName}`,
        [listType(type)],
        type,
        ([l]) => extreme(list(l), name, prefer),
        elementCost(type),
      ),
    ),
  );
}

function searchFunction(name: string, id: string, search: (l: CelList, item: CelValue) => bigint): FunctionDecl {
  return declareFunction(
    name,
    memberOverload(id, [listType(A), A], IntType, ([l, item]) => search(list(l), item as CelValue), searchCost),
  );
}

const functions: FunctionDecl[] = [
  declareFunction(
    "isSorted",
    ...COMPARABLE.map(([name, type]) =>
      memberOverload(
        `list_${name}_is_sorted_bool`,
        [listType(type)],
        BoolType,
        ([l]) => isSorted(list(l)),
        elementCost(type),
      ),
    ),
  ),
  declareFunction(
    "sum",
    ...SUMMABLE.map(([name, type, zero]) =>
      memberOverload(
        `list_${name}_sum_${name}`,
        [listType(type)],
        type,
        ([l]) => sum(list(l), zero),
        elementCost(type),
      ),
    ),
  ),
  extremeFunction("max", -1),
  extremeFunction("min", 1),
  searchFunction("indexOf", "list_a_index_of_int", indexOf),
  searchFunction("lastIndexOf", "list_a_last_index_of_int", lastIndexOf),
];

export const listsLibrary: CelLibrary = { name: "kubernetes.lists", functions };
