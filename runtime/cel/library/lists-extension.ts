// cel-go's ext.Lists at version 3, which Kubernetes enables from 1.34 (`ext.Lists(ext.ListsVersion(3))`
// in its base environment): `slice` (version 0), `flatten` (1), `lists.range`, `distinct`, `reverse`,
// `sort` and the `sortBy` macro (2), and cel-go's cost estimators and trackers for all of them (3).
// `first` and `last` belong to cel-go's optional types library (optionals.ts).
//
// `sortBy(e, key)` expands, as in cel-go, to a binding of the receiver to `@__sortBy_input__` whose
// result is `@__sortBy_input__.@sortByAssociatedKeys(@__sortBy_input__.map(e, key))`. Sorting follows
// Go's sort.Slice exactly (pattern-defeating quicksort, not stable), so elements with equal keys end up
// in the order cel-go leaves them.
import type { Expr } from "../common/ast.js";
import {
  BoolType,
  BytesType,
  type CelType,
  DoubleType,
  DurationType,
  DynType,
  IntType,
  listType,
  StringType,
  TimestampType,
  typeName,
  typeParam,
  UintType,
} from "../common/cel-types.js";
import {
  type CelLibrary,
  type CostEstimate,
  type MacroDecl,
  MacroError,
  type OverloadCost,
  type OverloadDecl,
  type SizeEstimate,
} from "../common/decls.js";
import { celEquals } from "../common/equality.js";
import {
  ArrayList,
  CelDuration,
  CelError,
  CelList,
  type CelTimestamp,
  CelUint,
  type CelValue,
  typeOfValue,
} from "../common/values.js";
import { standardMacros } from "../parser/macros.js";
import { type CallEstimateContext, multiplyEstimates } from "./kubernetes-call-cost.js";
import { addCosts, MAX_COST, multiplyByCostFactor, STRING_TRAVERSAL_COST_FACTOR, sizeOf } from "./kubernetes-cost.js";
import { declareFunction, generic, globalOverload, memberOverload } from "./standard/declare.js";
import { compareDurations } from "./standard/durations.js";
import { noSuchOverload } from "./standard/overload-errors.js";
import { actualSize } from "./standard/standard-cost.js";
import { compareTimestamps } from "./standard/standard-timestamps.js";
import { compareBytes, compareStrings } from "./standard/text.js";

const T = typeParam("T");
const listT = listType(T);
const listDyn = listType(DynType);

/** The element types `sort` and `sortBy` keys accept, in cel-go's declaration order. */
const COMPARABLE_TYPES: readonly CelType[] = [
  IntType,
  UintType,
  DoubleType,
  BoolType,
  DurationType,
  TimestampType,
  StringType,
  BytesType,
];

/** The runtime type names of the comparable types (cel-go's traits.Comparer values). */
const COMPARABLE_TYPE_NAMES: ReadonlySet<string> = new Set(COMPARABLE_TYPES.map(typeName));

/** lists.range refuses to build more elements than this (cel-go's maxRangeSize). */
const MAX_RANGE_SIZE = 10_000_000n;

// ---- Functions.

function typeNameOf(value: CelValue): string {
  return typeName(typeOfValue(value));
}

function slice(list: CelList, start: bigint, end: bigint): CelValue {
  if (start < 0n || end < 0n) return new CelError(`cannot slice(${start}, ${end}), negative indexes not supported`);
  if (start > end) {
    return new CelError(`cannot slice(${start}, ${end}), start index must be less than or equal to end index`);
  }
  if (BigInt(list.size) < end) return new CelError(`cannot slice(${start}, ${end}), list is length ${list.size}`);
  const items: CelValue[] = [];
  for (let i = Number(start); i < Number(end); i++) items.push(list.get(i));
  return new ArrayList(items);
}

function flattenInto(out: CelValue[], list: CelList, depth: bigint): void {
  for (const item of list) {
    if (item instanceof CelList && depth > 0n) flattenInto(out, item, depth - 1n);
    else out.push(item);
  }
}

/**
 * `flatten()` and `flatten(depth)`. cel-go turns the run-time type guards of these overloads off (a list
 * whose first element is not a list is still flattened), so the arguments are checked here.
 */
function flatten(args: readonly CelValue[]): CelValue {
  const [list, depth = 1n] = args;
  if (!(list instanceof CelList) || typeof depth !== "bigint") {
    const argTypes = args.slice(1).map((arg) => typeNameOf(arg as CelValue));
    return new CelError(`no such overload: ${typeNameOf(list as CelValue)}.flatten(${argTypes.join(", ")})`);
  }
  if (depth < 0n) return new CelError("level must be non-negative");
  const out: CelValue[] = [];
  flattenInto(out, list, depth);
  return new ArrayList(out);
}

/** `lists.range(n)`: 0 … n-1, computed on access rather than stored. */
class RangeList extends CelList {
  constructor(readonly size: number) {
    super();
  }
  get(index: number): CelValue {
    return BigInt(index);
  }
}

function range(n: bigint): CelValue {
  if (n < 0n) return new CelError(`lists.range: size must be non-negative, got ${n}`);
  if (n > MAX_RANGE_SIZE) return new CelError(`lists.range: size ${n} exceeds maximum allowed (${MAX_RANGE_SIZE})`);
  return new RangeList(Number(n));
}

function reverse(list: CelList): CelValue {
  return new ArrayList(list.toArray().reverse());
}

/** The first occurrence of each element by CEL equality (so 1 and 1.0 are one element). */
function distinct(list: CelList): CelValue {
  if (list.size === 0) return list;
  const unique: CelValue[] = [];
  for (const item of list) if (!unique.some((seen) => celEquals(item, seen))) unique.push(item);
  return new ArrayList(unique);
}

/** Whether a < b for two values of the same comparable type; NaN orders with nothing. */
function lessThan(a: CelValue, b: CelValue): boolean {
  if (typeof a === "bigint" || typeof a === "number") return a < (b as typeof a);
  if (typeof a === "boolean") return !a && (b as boolean);
  if (typeof a === "string") return compareStrings(a, b as string) < 0;
  if (a instanceof CelUint) return a.value < (b as CelUint).value;
  if (a instanceof Uint8Array) return compareBytes(a, b as Uint8Array) < 0;
  if (a instanceof CelDuration) return compareDurations(a, b as CelDuration) < 0;
  return compareTimestamps(a as CelTimestamp, b as CelTimestamp) < 0;
}

/**
 * `list.@sortByAssociatedKeys(keys)`: the elements of `list` in the order that sorts `keys`; `sort()` is
 * a list sorted by itself. cel-go binds one implementation to every overload, guarded only by the
 * arguments being lists. It reports mixed key types from the comparator; every key takes part in some
 * comparison once there are two, so checking them all up front gives the same answer.
 */
function sortByAssociatedKeys(list: CelValue | undefined, keys: CelValue | undefined): CelValue {
  if (!(list instanceof CelList) || !(keys instanceof CelList)) return noSuchOverload();
  if (list.size !== keys.size) {
    return new CelError(
      `@sortByAssociatedKeys() expected a list of the same size as the associated keys list, but got ${list.size} and ${keys.size} elements respectively`,
    );
  }
  if (list.size === 0) return list;
  const keyValues = keys.toArray();
  const keyType = typeNameOf(keyValues[0] as CelValue);
  if (!COMPARABLE_TYPE_NAMES.has(keyType)) return new CelError("list elements must be comparable");
  if (keyValues.some((key) => typeNameOf(key) !== keyType))
    return new CelError("list elements must have the same type");
  const order = keyValues.map((_, i) => i);
  goSortSlice(
    order.length,
    (i, j) => lessThan(keyValues[order[i] as number] as CelValue, keyValues[order[j] as number] as CelValue),
    (i, j) => {
      const swapped = order[i] as number;
      order[i] = order[j] as number;
      order[j] = swapped;
    },
  );
  return new ArrayList(order.map((i) => list.get(i)));
}

// ---- Go's sort.Slice (sort/zsortfunc.go, Go 1.19 and later), for cel-go's ordering of equal keys.

interface LessSwap {
  less(i: number, j: number): boolean;
  swap(i: number, j: number): void;
}

const UNKNOWN_HINT = 0;
const INCREASING_HINT = 1;
const DECREASING_HINT = 2;

/** Go's bits.Len for a non-negative int below 2^32. */
function bitLength(n: number): number {
  return 32 - Math.clz32(n);
}

function goSortSlice(length: number, less: LessSwap["less"], swap: LessSwap["swap"]): void {
  pdqsort({ less, swap }, 0, length, bitLength(length));
}

function insertionSort(data: LessSwap, a: number, b: number): void {
  for (let i = a + 1; i < b; i++) {
    for (let j = i; j > a && data.less(j, j - 1); j--) data.swap(j, j - 1);
  }
}

function siftDown(data: LessSwap, lo: number, hi: number, first: number): void {
  let root = lo;
  for (;;) {
    let child = 2 * root + 1;
    if (child >= hi) return;
    if (child + 1 < hi && data.less(first + child, first + child + 1)) child++;
    if (!data.less(first + root, first + child)) return;
    data.swap(first + root, first + child);
    root = child;
  }
}

function heapSort(data: LessSwap, a: number, b: number): void {
  const first = a;
  const hi = b - a;
  for (let i = Math.trunc((hi - 1) / 2); i >= 0; i--) siftDown(data, i, hi, first);
  for (let i = hi - 1; i >= 0; i--) {
    data.swap(first, first + i);
    siftDown(data, 0, i, first);
  }
}

function pdqsort(data: LessSwap, a: number, b: number, limit: number): void {
  const maxInsertion = 12;
  let wasBalanced = true;
  let wasPartitioned = true;
  for (;;) {
    const length = b - a;
    if (length <= maxInsertion) {
      insertionSort(data, a, b);
      return;
    }
    if (limit === 0) {
      heapSort(data, a, b);
      return;
    }
    if (!wasBalanced) {
      breakPatterns(data, a, b);
      limit--;
    }
    let [pivot, hint] = choosePivot(data, a, b);
    if (hint === DECREASING_HINT) {
      reverseRange(data, a, b);
      pivot = b - 1 - (pivot - a);
      hint = INCREASING_HINT;
    }
    if (wasBalanced && wasPartitioned && hint === INCREASING_HINT && partialInsertionSort(data, a, b)) return;
    if (a > 0 && !data.less(a - 1, pivot)) {
      a = partitionEqual(data, a, b, pivot);
      continue;
    }
    const [mid, alreadyPartitioned] = partition(data, a, b, pivot);
    wasPartitioned = alreadyPartitioned;
    const leftLen = mid - a;
    const rightLen = b - mid;
    const balanceThreshold = Math.trunc(length / 8);
    if (leftLen < rightLen) {
      wasBalanced = leftLen >= balanceThreshold;
      pdqsort(data, a, mid, limit);
      a = mid + 1;
    } else {
      wasBalanced = rightLen >= balanceThreshold;
      pdqsort(data, mid + 1, b, limit);
      b = mid;
    }
  }
}

function partition(data: LessSwap, a: number, b: number, pivot: number): [number, boolean] {
  data.swap(a, pivot);
  let i = a + 1;
  let j = b - 1;
  while (i <= j && data.less(i, a)) i++;
  while (i <= j && !data.less(j, a)) j--;
  if (i > j) {
    data.swap(j, a);
    return [j, true];
  }
  data.swap(i, j);
  i++;
  j--;
  for (;;) {
    while (i <= j && data.less(i, a)) i++;
    while (i <= j && !data.less(j, a)) j--;
    if (i > j) break;
    data.swap(i, j);
    i++;
    j--;
  }
  data.swap(j, a);
  return [j, false];
}

function partitionEqual(data: LessSwap, a: number, b: number, pivot: number): number {
  data.swap(a, pivot);
  let i = a + 1;
  let j = b - 1;
  for (;;) {
    while (i <= j && !data.less(a, i)) i++;
    while (i <= j && data.less(a, j)) j--;
    if (i > j) break;
    data.swap(i, j);
    i++;
    j--;
  }
  return i;
}

function partialInsertionSort(data: LessSwap, a: number, b: number): boolean {
  const maxSteps = 5;
  const shortestShifting = 50;
  let i = a + 1;
  for (let step = 0; step < maxSteps; step++) {
    while (i < b && !data.less(i, i - 1)) i++;
    if (i === b) return true;
    if (b - a < shortestShifting) return false;
    data.swap(i, i - 1);
    if (i - a >= 2) {
      for (let j = i - 1; j >= 1 && data.less(j, j - 1); j--) data.swap(j, j - 1);
    }
    if (b - i >= 2) {
      for (let j = i + 1; j < b && data.less(j, j - 1); j++) data.swap(j, j - 1);
    }
  }
  return false;
}

const UINT64_MASK = (1n << 64n) - 1n;

function breakPatterns(data: LessSwap, a: number, b: number): void {
  const length = b - a;
  if (length < 8) return;
  // Go's xorshift seeded with the length: deterministic, like everything else here.
  let random = BigInt(length);
  const modulus = 2 ** bitLength(length);
  const middle = a + Math.trunc(length / 4) * 2;
  for (let idx = middle - 1; idx <= middle + 1; idx++) {
    random ^= (random << 13n) & UINT64_MASK;
    random ^= random >> 7n;
    random ^= (random << 17n) & UINT64_MASK;
    let other = Number(random & BigInt(modulus - 1));
    if (other >= length) other -= length;
    data.swap(idx, a + other);
  }
}

function choosePivot(data: LessSwap, a: number, b: number): [number, number] {
  const shortestNinther = 50;
  const maxSwaps = 4 * 3;
  const l = b - a;
  const swaps = { count: 0 };
  const quarter = Math.trunc(l / 4);
  let i = a + quarter;
  let j = a + quarter * 2;
  let k = a + quarter * 3;
  if (l >= 8) {
    if (l >= shortestNinther) {
      i = median(data, i - 1, i, i + 1, swaps);
      j = median(data, j - 1, j, j + 1, swaps);
      k = median(data, k - 1, k, k + 1, swaps);
    }
    j = median(data, i, j, k, swaps);
  }
  if (swaps.count === 0) return [j, INCREASING_HINT];
  return [j, swaps.count === maxSwaps ? DECREASING_HINT : UNKNOWN_HINT];
}

function median(data: LessSwap, a: number, b: number, c: number, swaps: { count: number }): number {
  const order2 = (x: number, y: number): [number, number] => {
    if (!data.less(y, x)) return [x, y];
    swaps.count++;
    return [y, x];
  };
  [a, b] = order2(a, b);
  [b, c] = order2(b, c);
  [a, b] = order2(a, b);
  return b;
}

function reverseRange(data: LessSwap, a: number, b: number): void {
  for (let i = a, j = b - 1; i < j; i++, j--) data.swap(i, j);
}

// ---- Costs (cel-go's version 3 estimators and trackers): a call and a list allocation plus a factor
// times a list size; sorting and distinct compare every pair.

const CALL_COST = 1;
const LIST_CREATE_BASE_COST = 10;
const SELF_COMPARE_COST_FACTOR = 2;

interface ListCallEstimate {
  readonly cost: CostEstimate;
  readonly size: SizeEstimate;
}

type EstimateListCall = (
  args: readonly (SizeEstimate | undefined)[],
  context: CallEstimateContext | undefined,
) => ListCallEstimate;

/** cel-go's estimateAllocatingListCall: the result has `size` elements. */
function allocatingListCall(costFactor: number, size: SizeEstimate): ListCallEstimate {
  const base = CALL_COST + LIST_CREATE_BASE_COST;
  return { cost: addCosts(multiplyByCostFactor(size, costFactor), { min: base, max: base }), size };
}

/** cel-go's trackAllocatingListCall: uint64(size × factor), truncated, plus the call and the allocation. */
function trackAllocatingListCall(costFactor: number, size: number): number {
  return Math.min(Math.max(Math.trunc(size * costFactor), 0) + CALL_COST + LIST_CREATE_BASE_COST, MAX_COST);
}

/** cel-go's nodeAsUintValue: an int literal argument (negative as 0), else the fallback. */
function literalCount(context: CallEstimateContext | undefined, argIndex: number, fallback: number): number {
  const value = context?.literal(argIndex);
  if (typeof value !== "bigint") return fallback;
  return value < 0n ? 0 : Number(value);
}

function fixedSize(n: number): SizeEstimate {
  return { min: n, max: n };
}

function listCallCost(estimate: EstimateListCall, actual: NonNullable<OverloadCost["actual"]>): OverloadCost {
  return {
    estimate: (args, _result?: SizeEstimate, context?: CallEstimateContext) => estimate(args, context).cost,
    resultSize: (args, context?: CallEstimateContext) => estimate(args, context).size,
    actual,
  };
}

/** cel-go's trackListOutputSize: the size of the result. */
function trackOutputSize(_args: readonly CelValue[], result: CelValue): number {
  return trackAllocatingListCall(1, actualSize(result));
}

/** Every pair of a list's elements compared: strings and bytes cost a traversal more. */
function selfCompareFactor(stringLike: boolean): number {
  return stringLike ? SELF_COMPARE_COST_FACTOR + STRING_TRAVERSAL_COST_FACTOR : SELF_COMPARE_COST_FACTOR;
}

/** cel-go's trackListSelfCompare. */
function trackSelfCompare(list: CelValue | undefined): number {
  if (!(list instanceof CelList) || list.size === 0) return trackAllocatingListCall(SELF_COMPARE_COST_FACTOR, 0);
  const first = list.get(0);
  const factor = selfCompareFactor(typeof first === "string" || first instanceof Uint8Array);
  return trackAllocatingListCall(factor, Math.min(list.size * list.size, MAX_COST));
}

function estimateSelfCompare(size: SizeEstimate | undefined, elemType: CelType): ListCallEstimate {
  const sz = sizeOf(size);
  const stringLike = elemType.kind === "string" || elemType.kind === "bytes";
  return allocatingListCall(selfCompareFactor(stringLike), multiplyEstimates(sz, sz));
}

/** `end - start` as cel-go's uint64 arithmetic has it: a start beyond the end wraps to about 2^64. */
function sliceLength(start: number, end: number): number {
  return end >= start ? end - start : MAX_COST - (start - end);
}

const sliceCost = listCallCost((args, context) => {
  const sz = sizeOf(args[0]);
  const start = literalCount(context, 1, 0);
  const end = literalCount(context, 2, sz.max);
  return allocatingListCall(1, fixedSize(sliceLength(start, end)));
}, trackOutputSize);

const rangeCost = listCallCost(
  (_args, context) => allocatingListCall(1, fixedSize(literalCount(context, 0, MAX_COST))),
  trackOutputSize,
);

const reverseCost = listCallCost((args) => allocatingListCall(1, sizeOf(args[0])), trackOutputSize);

const flattenCost = listCallCost(
  (args, context) => allocatingListCall(args.length === 2 ? literalCount(context, 1, MAX_COST) : 1, sizeOf(args[0])),
  (args) => {
    const depth = args.length === 2 && typeof args[1] === "bigint" ? Number(args[1]) : 1;
    return trackAllocatingListCall(depth, actualSize(args[0] as CelValue));
  },
);

const distinctCost = listCallCost(
  (args) => {
    const sz = sizeOf(args[0]);
    return allocatingListCall(SELF_COMPARE_COST_FACTOR, multiplyEstimates(sz, sz));
  },
  (args) => trackSelfCompare(args[0]),
);

function sortCost(elemType: CelType): OverloadCost {
  return listCallCost(
    (args) => estimateSelfCompare(args[0], elemType),
    (args) => trackSelfCompare(args[0]),
  );
}

function sortByCost(keyType: CelType): OverloadCost {
  return listCallCost(
    (args) => estimateSelfCompare(args[1], keyType),
    (args) => trackSelfCompare(args[1]),
  );
}

// ---- Declarations.

function list(v: CelValue | undefined): CelList {
  return v as CelList;
}

function int(v: CelValue | undefined): bigint {
  return v as bigint;
}

/**
 * An overload whose implementation checks its own arguments, called without the run-time signature
 * guard (cel-go's decls.DisableTypeGuards for flatten; its singleton bindings for sort and sortBy).
 */
function unguarded(overload: OverloadDecl): OverloadDecl {
  return { ...overload, disableTypeGuards: true };
}

const SORT_BY_INPUT = "@__sortBy_input__";
const SORT_BY_TARGETS: ReadonlySet<Expr["kind"]> = new Set(["list", "select", "ident", "comprehension", "call"]);
const expandMap = standardMacros.find((m) => m.name === "map" && m.argCount === 2 && m.member)?.expand;

/** `target.sortBy(e, key)` → `cel.bind(@__sortBy_input__, target, @__sortBy_input__.@sortByAssociatedKeys(@__sortBy_input__.map(e, key)))`. */
const sortByMacro: MacroDecl = {
  name: "sortBy",
  argCount: 2,
  member: true,
  expand(h, target, args, call) {
    const input = h.ident(SORT_BY_INPUT);
    const receiver = target as Expr;
    if (!SORT_BY_TARGETS.has(receiver.kind)) {
      throw new MacroError(
        "sortBy can only be applied to a list, identifier, comprehension, call or select expression",
        receiver,
      );
    }
    const keys = expandMap?.(h, h.copy(input), args, call) as Expr;
    const sorted = h.memberCall("@sortByAssociatedKeys", h.copy(input), keys);
    return h.fold("#unused", h.list(), SORT_BY_INPUT, receiver, h.literal(false), input, sorted);
  },
};

export const listsExtLibrary: CelLibrary = {
  name: "cel.lib.ext.lists@3",
  functions: [
    declareFunction(
      "slice",
      generic(
        ["T"],
        memberOverload(
          "list_slice",
          [listT, IntType, IntType],
          listT,
          ([l, start, end]) => slice(list(l), int(start), int(end)),
          sliceCost,
        ),
      ),
    ),
    declareFunction(
      "flatten",
      unguarded(generic(["T"], memberOverload("list_flatten", [listType(listT)], listT, flatten, flattenCost))),
      unguarded(memberOverload("list_flatten_int", [listDyn, IntType], listDyn, flatten, flattenCost)),
    ),
    declareFunction(
      "sort",
      ...COMPARABLE_TYPES.map((t) =>
        unguarded(
          memberOverload(
            `list_${typeName(t)}_sort`,
            [listType(t)],
            listType(t),
            ([l]) => sortByAssociatedKeys(l, l),
            sortCost(t),
          ),
        ),
      ),
    ),
    declareFunction(
      "@sortByAssociatedKeys",
      ...COMPARABLE_TYPES.map((t) =>
        unguarded(
          generic(
            ["T"],
            memberOverload(
              `list_${typeName(t)}_sortByAssociatedKeys`,
              [listT, listType(t)],
              listT,
              ([l, keys]) => sortByAssociatedKeys(l, keys),
              sortByCost(t),
            ),
          ),
        ),
      ),
    ),
    declareFunction(
      "lists.range",
      globalOverload("lists_range", [IntType], listType(IntType), ([n]) => range(int(n)), rangeCost),
    ),
    declareFunction(
      "reverse",
      generic(
        ["T"],
        memberOverload("list_reverse", [listT], listT, ([l]) => reverse(list(l)), reverseCost),
      ),
    ),
    declareFunction(
      "distinct",
      generic(
        ["T"],
        memberOverload("list_distinct", [listT], listT, ([l]) => distinct(list(l)), distinctCost),
      ),
    ),
  ],
  macros: [sortByMacro],
};
