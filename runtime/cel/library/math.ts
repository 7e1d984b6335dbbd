// cel-go's ext.Math: the `math.greatest` / `math.least` macros (over the internal `math.@max` /
// `math.@min` functions), rounding, floating-point tests, sign and absolute value, bitwise operations
// and `math.sqrt`, with cel-go's overload ids and error texts.
import type { Expr } from "../common/ast.js";
import { BoolType, type CelType, DoubleType, DynType, IntType, listType, UintType } from "../common/cel-types.js";
import {
  type CelLibrary,
  type FunctionDecl,
  type MacroDecl,
  MacroError,
  type OverloadDecl,
  type OverloadImpl,
} from "../common/decls.js";
import { compareNumbers } from "../common/equality.js";
import { CelError, CelList, CelUint, type CelValue, INT64_MIN, UINT64_MAX } from "../common/values.js";
import { globalOverload } from "./standard/declare.js";

const noSuchOverload = (): CelError => new CelError("no such overload");

function isNumber(v: CelValue): boolean {
  return typeof v === "bigint" || typeof v === "number" || v instanceof CelUint;
}

/** A numeric literal, or any expression that is not a literal of another kind (its type is checked later). */
function isNumericArg(e: Expr): boolean {
  switch (e.kind) {
    case "const":
      return typeof e.value === "bigint" || typeof e.value === "number" || e.value instanceof CelUint;
    case "list":
    case "map":
    case "struct":
      return false;
    default:
      return true;
  }
}

function isNumericListLiteral(e: Expr): boolean {
  return e.kind === "list" && e.elements.length > 0 && e.elements.every(isNumericArg);
}

/** `math.greatest(…)` → `math.@max(…)`; `math.least(…)` → `math.@min(…)`; three or more arguments become a list. */
function extremumMacro(name: "greatest" | "least", fn: string): MacroDecl {
  const label = `math.${name}()`;
  return {
    name,
    member: true,
    expand(h, target, args) {
      if (target?.kind !== "ident" || target.name !== "math") return undefined;
      if (args.length === 0) throw new MacroError(`${label} requires at least one argument`, target);
      if (args.length === 1) {
        const arg = args[0] as Expr;
        if (isNumericListLiteral(arg) || isNumericArg(arg)) return h.call(fn, arg);
        throw new MacroError(`${label} invalid single argument value`, arg);
      }
      for (const arg of args) {
        if (!isNumericArg(arg)) throw new MacroError(`${label} simple literal arguments must be numeric`, arg);
      }
      return args.length === 2 ? h.call(fn, ...args) : h.call(fn, h.list(...args));
    },
  };
}

/** The smaller (or larger) of two numbers of any numeric types; the first wins ties. */
function pick(fn: string, wantLess: boolean): (a: CelValue, b: CelValue) => CelValue {
  return (a, b) => {
    const order = compareNumbers(a, b);
    if (order === undefined) return new CelError(`no such overload: ${fn}`);
    return (wantLess ? order > 0 : order < 0) ? b : a;
  };
}

function extremumFunction(fn: string, suffix: "min" | "max"): FunctionDecl {
  const pair = pick(fn, suffix === "min");
  const one: OverloadImpl = ([v]) =>
    isNumber(v as CelValue) ? (v as CelValue) : new CelError(`no such overload: ${fn}`);
  const two: OverloadImpl = ([a, b]) => pair(a as CelValue, b as CelValue);
  const list: OverloadImpl = ([l]) => {
    if (!(l instanceof CelList)) return noSuchOverload();
    if (l.size === 0) return new CelError(`${fn}(list) argument must not be empty`);
    let best = l.get(0);
    for (let i = 1; i < l.size; i++) {
      best = pair(best, l.get(i));
      if (best instanceof CelError) return best;
    }
    return isNumber(best) ? best : new CelError(`no such overload: ${fn}`);
  };
  const id = (s: string): string => `math_@${suffix}_${s}`;
  const overloads: OverloadDecl[] = [
    globalOverload(id("double"), [DoubleType], DoubleType, one),
    globalOverload(id("int"), [IntType], IntType, one),
    globalOverload(id("uint"), [UintType], UintType, one),
    globalOverload(id("double_double"), [DoubleType, DoubleType], DoubleType, two),
    globalOverload(id("int_int"), [IntType, IntType], IntType, two),
    globalOverload(id("uint_uint"), [UintType, UintType], UintType, two),
    globalOverload(id("int_uint"), [IntType, UintType], DynType, two),
    globalOverload(id("int_double"), [IntType, DoubleType], DynType, two),
    globalOverload(id("double_int"), [DoubleType, IntType], DynType, two),
    globalOverload(id("double_uint"), [DoubleType, UintType], DynType, two),
    globalOverload(id("uint_int"), [UintType, IntType], DynType, two),
    globalOverload(id("uint_double"), [UintType, DoubleType], DynType, two),
    globalOverload(id("list_double"), [listType(DoubleType)], DoubleType, list),
    globalOverload(id("list_int"), [listType(IntType)], IntType, list),
    globalOverload(id("list_uint"), [listType(UintType)], UintType, list),
  ];
  return { name: fn, overloads };
}

function doubleFn(name: string, id: string, result: CelType, f: (x: number) => CelValue): FunctionDecl {
  return {
    name,
    overloads: [globalOverload(id, [DoubleType], result, ([x]) => (typeof x === "number" ? f(x) : noSuchOverload()))],
  };
}

/** Go's math.Round: halves away from zero. */
function roundHalfAway(x: number): number {
  if (!Number.isFinite(x)) return x;
  const r = Math.sign(x) * Math.round(Math.abs(x));
  return r === 0 ? x * 0 : r;
}

const asInt = (v: CelValue): bigint | undefined => (typeof v === "bigint" ? v : undefined);
const asUint = (v: CelValue): bigint | undefined => (v instanceof CelUint ? v.value : undefined);

/** Wraps to int64 two's complement, as Go's integer operations do. */
const wrapInt = (n: bigint): bigint => BigInt.asIntN(64, n);
const wrapUint = (n: bigint): CelUint => new CelUint(BigInt.asUintN(64, n));

function bitwise(op: string, f: (a: bigint, b: bigint) => bigint): FunctionDecl {
  return {
    name: `math.${op}`,
    overloads: [
      globalOverload(`math_${op}_int_int`, [IntType, IntType], IntType, ([a, b]) => {
        const x = asInt(a as CelValue);
        const y = asInt(b as CelValue);
        return x === undefined || y === undefined ? noSuchOverload() : wrapInt(f(x, y));
      }),
      globalOverload(`math_${op}_uint_uint`, [UintType, UintType], UintType, ([a, b]) => {
        const x = asUint(a as CelValue);
        const y = asUint(b as CelValue);
        return x === undefined || y === undefined ? noSuchOverload() : wrapUint(f(x, y));
      }),
    ],
  };
}

/** Shifts by 64 or more bits give 0; a negative shift is an error. Right shifts of ints fill with zeros. */
function shift(op: "bitShiftLeft" | "bitShiftRight"): FunctionDecl {
  const left = op === "bitShiftLeft";
  const run = (value: bigint, bits: CelValue, unsigned: boolean): CelValue => {
    if (typeof bits !== "bigint") return noSuchOverload();
    if (bits < 0n) return new CelError(`math.${op}() negative offset: ${bits}`);
    if (bits >= 64n) return unsigned ? new CelUint(0n) : 0n;
    const raw = BigInt.asUintN(64, value);
    const shifted = BigInt.asUintN(64, left ? raw << bits : raw >> bits);
    return unsigned ? new CelUint(shifted) : BigInt.asIntN(64, shifted);
  };
  return {
    name: `math.${op}`,
    overloads: [
      globalOverload(`math_${op}_int_int`, [IntType, IntType], IntType, ([v, bits]) =>
        typeof v === "bigint" ? run(v, bits as CelValue, false) : noSuchOverload(),
      ),
      globalOverload(`math_${op}_uint_int`, [UintType, IntType], UintType, ([v, bits]) =>
        v instanceof CelUint ? run(v.value, bits as CelValue, true) : noSuchOverload(),
      ),
    ],
  };
}

function numericFn(
  name: string,
  op: string,
  results: { double: CelType; int: CelType; uint: CelType },
  f: { double: (x: number) => CelValue; int: (x: bigint) => CelValue; uint: (x: bigint) => CelValue },
): FunctionDecl {
  return {
    name,
    overloads: [
      globalOverload(`math_${op}_double`, [DoubleType], results.double, ([x]) =>
        typeof x === "number" ? f.double(x) : noSuchOverload(),
      ),
      globalOverload(`math_${op}_int`, [IntType], results.int, ([x]) =>
        typeof x === "bigint" ? f.int(x) : noSuchOverload(),
      ),
      globalOverload(`math_${op}_uint`, [UintType], results.uint, ([x]) =>
        x instanceof CelUint ? f.uint(x.value) : noSuchOverload(),
      ),
    ],
  };
}

const functions: FunctionDecl[] = [
  extremumFunction("math.@max", "max"),
  extremumFunction("math.@min", "min"),
  doubleFn("math.ceil", "math_ceil_double", DoubleType, Math.ceil),
  doubleFn("math.floor", "math_floor_double", DoubleType, Math.floor),
  doubleFn("math.round", "math_round_double", DoubleType, roundHalfAway),
  doubleFn("math.trunc", "math_trunc_double", DoubleType, Math.trunc),
  doubleFn("math.isInf", "math_isInf_double", BoolType, (x) => x === Infinity || x === -Infinity),
  doubleFn("math.isNaN", "math_isNaN_double", BoolType, Number.isNaN),
  doubleFn("math.isFinite", "math_isFinite_double", BoolType, Number.isFinite),
  numericFn(
    "math.abs",
    "abs",
    { double: DoubleType, int: IntType, uint: UintType },
    {
      double: Math.abs,
      int: (x) => (x === INT64_MIN ? new CelError("integer overflow") : x < 0n ? -x : x),
      uint: (x) => new CelUint(x),
    },
  ),
  numericFn(
    "math.sign",
    "sign",
    { double: DoubleType, int: IntType, uint: UintType },
    {
      double: (x) => (Number.isNaN(x) ? x : x > 0 ? 1 : x < 0 ? -1 : 0),
      int: (x) => (x > 0n ? 1n : x < 0n ? -1n : 0n),
      uint: (x) => new CelUint(x > 0n ? 1n : 0n),
    },
  ),
  numericFn(
    "math.sqrt",
    "sqrt",
    { double: DoubleType, int: DoubleType, uint: DoubleType },
    { double: Math.sqrt, int: (x) => Math.sqrt(Number(x)), uint: (x) => Math.sqrt(Number(x)) },
  ),
  bitwise("bitAnd", (a, b) => a & b),
  bitwise("bitOr", (a, b) => a | b),
  bitwise("bitXor", (a, b) => a ^ b),
  {
    name: "math.bitNot",
    overloads: [
      globalOverload("math_bitNot_int_int", [IntType], IntType, ([x]) =>
        typeof x === "bigint" ? ~x : noSuchOverload(),
      ),
      globalOverload("math_bitNot_uint_uint", [UintType], UintType, ([x]) =>
        x instanceof CelUint ? new CelUint(UINT64_MAX ^ x.value) : noSuchOverload(),
      ),
    ],
  },
  shift("bitShiftLeft"),
  shift("bitShiftRight"),
];

export const mathLibrary: CelLibrary = {
  name: "cel.lib.ext.math",
  macros: [extremumMacro("greatest", "math.@max"), extremumMacro("least", "math.@min")],
  functions,
};
