// cel-go's optional types library (cel.OptionalTypes, all versions), which Kubernetes enables from 1.28:
// the `optional_type` type, `optional.of/ofNonZeroValue/none`, `hasValue`, `value`, `or`, `orValue`,
// `first`, `last`, `optional.unwrap`/`unwrapOpt`, the `optMap`/`optFlatMap` macros, and the `_?._` /
// `_[?_]` operators the parser emits for `a.?b` and `a[?b]`, plus `_[_]` on an optional operand.
import type { Expr } from "../common/ast.js";
import {
  BoolType,
  DynType,
  IntType,
  listType,
  mapType,
  optionalType,
  StringType,
  typeParam,
} from "../common/cel-types.js";
import { type CelLibrary, type FunctionDecl, type MacroDecl, MacroError } from "../common/decls.js";
import {
  ArrayList,
  CelDuration,
  CelError,
  CelList,
  CelMap,
  CelObject,
  CelOptional,
  CelTimestamp,
  CelUint,
  type CelValue,
} from "../common/values.js";
import { bind } from "./bindings.js";
import { globalOverload, memberOverload } from "./standard/declare.js";

const K = typeParam("K");
const V = typeParam("V");
const optionalV = optionalType(V);
const listV = listType(V);
const mapKV = mapType(K, V);
const optionalList = optionalType(listV);
const optionalMap = optionalType(mapKV);

const NONE = CelOptional.none;
const noSuchOverload = (): CelError => new CelError("no such overload");

/** cel-go's zero values (traits.Zeroer): a timestamp is zero at Go's zero time (year 1), not at the epoch. */
export function isZeroValue(value: CelValue): boolean {
  switch (typeof value) {
    case "boolean":
      return !value;
    case "bigint":
      return value === 0n;
    case "number":
      return value === 0;
    case "string":
      return value.length === 0;
    case "object":
      if (value === null) return true;
      if (value instanceof Uint8Array) return value.length === 0;
      if (value instanceof CelUint) return value.value === 0n;
      if (value instanceof CelList) return value.size === 0;
      if (value instanceof CelMap) return value.size === 0;
      if (value instanceof CelDuration) return value.nanos === 0n;
      if (value instanceof CelTimestamp) return value.seconds === GO_ZERO_TIME_SECONDS && value.nanos === 0;
      if (value instanceof CelObject) return value.fieldNames().next().done === true;
      return false;
    default:
      return false;
  }
}

/** 0001-01-01T00:00:00Z in seconds since the Unix epoch. */
const GO_ZERO_TIME_SECONDS = -62135596800n;

function optionalUnwrap(list: CelValue): CelValue {
  if (!(list instanceof CelList)) return noSuchOverload();
  const out: CelValue[] = [];
  for (const item of list) {
    if (!(item instanceof CelOptional)) return new CelError(`value ${String(item)} is not optional`);
    if (item.hasValue()) out.push(item.value);
  }
  return new ArrayList(out);
}

const functions: FunctionDecl[] = [
  {
    name: "optional.of",
    overloads: [globalOverload("optional_of", [V], optionalV, ([v]) => new CelOptional(v as CelValue))],
  },
  {
    name: "optional.ofNonZeroValue",
    overloads: [
      globalOverload("optional_ofNonZeroValue", [V], optionalV, ([v]) =>
        isZeroValue(v as CelValue) ? NONE : new CelOptional(v as CelValue),
      ),
    ],
  },
  { name: "optional.none", overloads: [globalOverload("optional_none", [], optionalV, () => NONE)] },
  {
    name: "value",
    overloads: [
      memberOverload("optional_value", [optionalV], V, ([opt]) => {
        if (!(opt instanceof CelOptional)) return noSuchOverload();
        return opt.hasValue() ? opt.value : new CelError("optional.none() dereference");
      }),
    ],
  },
  {
    name: "hasValue",
    overloads: [
      memberOverload("optional_hasValue", [optionalV], BoolType, ([opt]) =>
        opt instanceof CelOptional ? opt.hasValue() : noSuchOverload(),
      ),
    ],
  },
  // The planner evaluates `or` / `orValue` itself, short-circuiting the right side as cel-go's decorator
  // does, and plans `_?._`, `_[?_]` and `_[_]` for every operand kind: these declarations only type them.
  // The checker types `_?._` from the operand's field type.
  {
    name: "or",
    overloads: [memberOverload("optional_or_optional", [optionalV, optionalV], optionalV)],
  },
  { name: "orValue", overloads: [memberOverload("optional_orValue_value", [optionalV, V], V)] },
  { name: "_?._", overloads: [globalOverload("select_optional_field", [DynType, StringType], optionalV)] },
  {
    name: "_[?_]",
    overloads: [
      globalOverload("list_optindex_optional_int", [listV, IntType], optionalV),
      globalOverload("optional_list_optindex_optional_int", [optionalList, IntType], optionalV),
      globalOverload("map_optindex_optional_value", [mapKV, K], optionalV),
      globalOverload("optional_map_optindex_optional_value", [optionalMap, K], optionalV),
    ],
  },
  {
    name: "_[_]",
    overloads: [
      globalOverload("optional_list_index_int", [optionalList, IntType], optionalV),
      globalOverload("optional_map_index_value", [optionalMap, K], optionalV),
    ],
  },
  {
    name: "first",
    overloads: [
      memberOverload("list_first", [listV], optionalV, ([list]) =>
        list instanceof CelList ? (list.size === 0 ? NONE : new CelOptional(list.get(0))) : noSuchOverload(),
      ),
    ],
  },
  {
    name: "last",
    overloads: [
      memberOverload("list_last", [listV], optionalV, ([list]) =>
        list instanceof CelList
          ? list.size === 0
            ? NONE
            : new CelOptional(list.get(list.size - 1))
          : noSuchOverload(),
      ),
    ],
  },
  {
    name: "optional.unwrap",
    overloads: [
      globalOverload("optional_unwrap", [listType(optionalV)], listV, ([l]) => optionalUnwrap(l as CelValue)),
    ],
  },
  {
    name: "unwrapOpt",
    overloads: [
      memberOverload("optional_unwrapOpt", [listType(optionalV)], listV, ([l]) => optionalUnwrap(l as CelValue)),
    ],
  },
];

/**
 * `target.optMap(x, expr)` → `target.hasValue() ? optional.of(<x bound to target.value()> expr) : optional.none()`;
 * `optFlatMap` leaves out the `optional.of`. Binding is cel.bind's empty-range comprehension; the target
 * appears twice, the second time as a copy with fresh ids, as in cel-go's expansion.
 */
function optMapMacro(name: "optMap" | "optFlatMap"): MacroDecl {
  return {
    name,
    argCount: 2,
    member: true,
    expand(h, target, args) {
      if (target === undefined) return undefined;
      const [varExpr, mapExpr] = args as [Expr, Expr];
      if (varExpr.kind !== "ident")
        throw new MacroError(`${name}() variable name must be a simple identifier`, varExpr);
      const bound = bind(h, varExpr.name, h.memberCall("value", h.copy(target)), mapExpr);
      return h.call(
        "_?_:_",
        h.memberCall("hasValue", target),
        name === "optMap" ? h.call("optional.of", bound) : bound,
        h.call("optional.none"),
      );
    },
  };
}

export const optionalsLibrary: CelLibrary = {
  name: "cel.lib.optional",
  parserOptions: { enableOptionalSyntax: true },
  types: [optionalType(DynType)],
  macros: [optMapMacro("optMap"), optMapMacro("optFlatMap")],
  functions,
};
