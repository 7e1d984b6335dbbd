// cel-go's ext.TwoVarComprehensions (Kubernetes 1.32+): `all`, `exists`, `existsOne` (alias
// `exists_one`), `transformList`, `transformMap` and `transformMapEntry` with an index/key variable and a
// value variable. They expand to two-variable comprehensions; the map-building ones accumulate through
// the internal `cel.@mapInsert` function.
import type { Expr } from "../common/ast.js";
import { mapType, typeParam } from "../common/cel-types.js";
import { type CelLibrary, type MacroDecl, MacroError, type MacroHelper } from "../common/decls.js";
import { CelError, CelMap, CelUint, type CelValue, HashMap } from "../common/values.js";
import { declareFunction, globalOverload } from "./standard/declare.js";

const MAP_INSERT = "cel.@mapInsert";
/** The accumulator name the parser reserves besides the helper's (cel-go's parser.AccumulatorName). */
const LEGACY_ACCUMULATOR = "__result__";

/** The accumulator's init, the loop condition, the step and the result of a two-variable macro. */
type FoldParts = (h: MacroHelper, args: readonly Expr[], iterVar: string) => [Expr, Expr, Expr, Expr];

function twoVarMacro(name: string, argCount: number, parts: FoldParts): MacroDecl {
  return {
    name,
    argCount,
    member: true,
    expand(h, target, args) {
      if (target === undefined) return undefined;
      const [first, second] = iterVars(h, args[0] as Expr, args[1] as Expr);
      const [init, condition, step, result] = parts(h, args, first);
      return h.fold(first, target, h.accuName, init, condition, step, result, second);
    },
  };
}

function iterVars(h: MacroHelper, arg0: Expr, arg1: Expr): [string, string] {
  const first = simpleName(arg0);
  const second = simpleName(arg1);
  if (first === second) throw new MacroError(`duplicate variable name: ${first}`, arg1);
  if (first === h.accuName || first === LEGACY_ACCUMULATOR)
    throw new MacroError("iteration variable overwrites accumulator variable", arg0);
  if (second === h.accuName || second === LEGACY_ACCUMULATOR)
    throw new MacroError("iteration variable overwrites accumulator variable", arg1);
  return [first, second];
}

function simpleName(e: Expr): string {
  if (e.kind !== "ident") throw new MacroError("argument must be a simple name", e);
  return e.name;
}

const accu = (h: MacroHelper): Expr => h.ident(h.accuName);

/** The filter (4 arguments) wraps the step: `filter ? step : accumulator`. */
function filtered(h: MacroHelper, args: readonly Expr[], step: (transform: Expr) => Expr): Expr {
  if (args.length === 4) return h.call("_?_:_", args[2] as Expr, step(args[3] as Expr), accu(h));
  return step(args[2] as Expr);
}

const all: FoldParts = (h, args) => [
  h.literal(true),
  h.call("@not_strictly_false", accu(h)),
  h.call("_&&_", accu(h), args[2] as Expr),
  accu(h),
];

const exists: FoldParts = (h, args) => [
  h.literal(false),
  h.call("@not_strictly_false", h.call("!_", accu(h))),
  h.call("_||_", accu(h), args[2] as Expr),
  accu(h),
];

const existsOne: FoldParts = (h, args) => [
  h.literal(0n),
  h.literal(true),
  h.call("_?_:_", args[2] as Expr, h.call("_+_", accu(h), h.literal(1n)), accu(h)),
  h.call("_==_", accu(h), h.literal(1n)),
];

const transformList: FoldParts = (h, args) => [
  h.list(),
  h.literal(true),
  filtered(h, args, (t) => h.call("_+_", accu(h), h.list(t))),
  accu(h),
];

const transformMap: FoldParts = (h, args, iterVar) => [
  h.map(),
  h.literal(true),
  filtered(h, args, (t) => h.call(MAP_INSERT, accu(h), h.ident(iterVar), t)),
  accu(h),
];

const transformMapEntry: FoldParts = (h, args) => [
  h.map(),
  h.literal(true),
  filtered(h, args, (t) => h.call(MAP_INSERT, accu(h), t)),
  accu(h),
];

/** cel-go's InsertMapKeyValue: a new map with the entry added; a key already present is an error. */
function insert(map: CelMap, entries: Iterable<readonly [CelValue, CelValue]>): CelValue {
  const out = new HashMap(map.entries());
  for (const [key, value] of entries) {
    if (out.has(key)) return new CelError(`insert failed: key ${formatKey(key)} already exists`);
    if (!out.set(key, value)) return new CelError(`unsupported key type: ${typeof key}`);
  }
  return out;
}

function formatKey(key: CelValue): string {
  return key instanceof CelUint ? String(key.value) : String(key);
}

const K = typeParam("K");
const V = typeParam("V");
const mapKV = mapType(K, V);

const mapInsert = declareFunction(
  MAP_INSERT,
  globalOverload("@mapInsert_map_key_value", [mapKV, K, V], mapKV, ([map, key, value]) =>
    map instanceof CelMap ? insert(map, [[key as CelValue, value as CelValue]]) : new CelError("no such overload"),
  ),
  globalOverload("@mapInsert_map_map", [mapKV, mapKV], mapKV, ([map, update]) =>
    map instanceof CelMap && update instanceof CelMap
      ? insert(map, update.entries())
      : new CelError("no such overload"),
  ),
);

export const comprehensionsLibrary: CelLibrary = {
  name: "cel.lib.ext.comprev2",
  macros: [
    twoVarMacro("all", 3, all),
    twoVarMacro("exists", 3, exists),
    twoVarMacro("existsOne", 3, existsOne),
    twoVarMacro("exists_one", 3, existsOne),
    twoVarMacro("transformList", 3, transformList),
    twoVarMacro("transformList", 4, transformList),
    twoVarMacro("transformMap", 3, transformMap),
    twoVarMacro("transformMap", 4, transformMap),
    twoVarMacro("transformMapEntry", 3, transformMapEntry),
    twoVarMacro("transformMapEntry", 4, transformMapEntry),
  ],
  functions: [mapInsert],
};
