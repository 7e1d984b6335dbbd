// Hand-built expression trees and a small function library for the interpreter tests, so they do not
// depend on the parser, checker or standard library.
import type {
  CheckedAst,
  ComprehensionExpr,
  ConstantValue,
  Expr,
  ParsedAst,
  Reference,
} from "../../../../runtime/cel/common/ast.js";
import {
  BoolType,
  type CelType,
  DynType,
  IntType,
  listType,
  StringType,
  typeParam,
} from "../../../../runtime/cel/common/cel-types.js";
import type { FunctionDecl, OverloadDecl, OverloadImpl } from "../../../../runtime/cel/common/decls.js";
import { celEquals } from "../../../../runtime/cel/common/equality.js";
import type { Activation, EvalResult } from "../../../../runtime/cel/common/evaluation.js";
import {
  ArrayList,
  CelError,
  type CelList,
  type CelMap,
  type CelValue,
  INT64_MAX,
  INT64_MIN,
} from "../../../../runtime/cel/common/values.js";
import type { CelEnv } from "../../../../runtime/cel/env.js";
import { plan } from "../../../../runtime/cel/interpreter/planner.js";

let nextId = 1;

export const lit = (value: ConstantValue): Expr => ({ kind: "const", id: nextId++, value });
export const ident = (name: string): Expr => ({ kind: "ident", id: nextId++, name });
export const select = (operand: Expr, field: string): Expr => ({
  kind: "select",
  id: nextId++,
  operand,
  field,
  testOnly: false,
});
export const has = (operand: Expr, field: string): Expr => ({
  kind: "select",
  id: nextId++,
  operand,
  field,
  testOnly: true,
});
export const call = (fn: string, ...args: Expr[]): Expr => ({ kind: "call", id: nextId++, function: fn, args });
export const member = (target: Expr, fn: string, ...args: Expr[]): Expr => ({
  kind: "call",
  id: nextId++,
  target,
  function: fn,
  args,
});
export const list = (elements: Expr[], optionalIndices: number[] = []): Expr => ({
  kind: "list",
  id: nextId++,
  elements,
  optionalIndices,
});
export const map = (...entries: [Expr, Expr, boolean?][]): Expr => ({
  kind: "map",
  id: nextId++,
  entries: entries.map(([key, value, optional]) => ({ id: nextId++, key, value, optional: optional ?? false })),
});
export const struct = (messageName: string, fields: [string, Expr, boolean?][]): Expr => ({
  kind: "struct",
  id: nextId++,
  messageName,
  fields: fields.map(([field, value, optional]) => ({ id: nextId++, field, value, optional: optional ?? false })),
});

export function fold(parts: Omit<ComprehensionExpr, "kind" | "id">): Expr {
  return { kind: "comprehension", id: nextId++, ...parts };
}

const ACCU = "@result";

/** `all` (stops at the first false) or `exists` (at the first true) as cel-go expands them. */
function quantifier(range: Expr, v: string, predicate: Expr, stopsAt: boolean): Expr {
  const accu = ident(ACCU);
  return fold({
    iterVar: v,
    iterRange: range,
    accuVar: ACCU,
    accuInit: lit(!stopsAt),
    loopCondition: call("@not_strictly_false", stopsAt ? call("!_", accu) : accu),
    loopStep: call(stopsAt ? "_||_" : "_&&_", ident(ACCU), predicate),
    result: ident(ACCU),
  });
}

export const all = (range: Expr, v: string, predicate: Expr): Expr => quantifier(range, v, predicate, false);
export const exists = (range: Expr, v: string, predicate: Expr): Expr => quantifier(range, v, predicate, true);

/** A comprehension that builds a list, starting from `[]`. */
function listBuilder(range: Expr, v: string, step: Expr): Expr {
  return fold({
    iterVar: v,
    iterRange: range,
    accuVar: ACCU,
    accuInit: list([]),
    loopCondition: lit(true),
    loopStep: step,
    result: ident(ACCU),
  });
}

/** `range.map(v, transform)`. */
export const mapMacro = (range: Expr, v: string, transform: Expr): Expr =>
  listBuilder(range, v, call("_+_", ident(ACCU), list([transform])));

/** `range.filter(v, predicate)`. */
export const filter = (range: Expr, v: string, predicate: Expr): Expr =>
  listBuilder(range, v, call("_?_:_", predicate, call("_+_", ident(ACCU), list([ident(v)])), ident(ACCU)));

/** `cel.bind(name, init, result)`. */
export function bind(name: string, init: Expr, result: Expr): Expr {
  return fold({
    iterVar: "#unused",
    iterRange: list([]),
    accuVar: name,
    accuInit: init,
    loopCondition: lit(false),
    loopStep: ident(name),
    result,
  });
}

export function parsed(expr: Expr): ParsedAst {
  return { expr, sourceInfo: { source: "", positions: new Map(), macroCalls: new Map() } };
}

/** A checked tree from hand-written types and references. */
export function checked(expr: Expr, types: [Expr, CelType][] = [], references: [Expr, Reference][] = []): CheckedAst {
  return {
    ...parsed(expr),
    types: new Map(types.map(([e, t]) => [e.id, t])),
    references: new Map(references.map(([e, r]) => [e.id, r])),
  };
}

function overload(id: string, params: CelType[], result: CelType, impl?: OverloadImpl, member = false): OverloadDecl {
  return { id, member, params, result, ...(impl ? { impl } : {}) };
}

const A = typeParam("A");

function addInt([a, b]: readonly CelValue[]): CelValue {
  const sum = (a as bigint) + (b as bigint);
  return sum > INT64_MAX || sum < INT64_MIN ? new CelError("return error for overflow") : sum;
}

/** A few functions with cel-go's names and overload ids. */
export const testFunctions: FunctionDecl[] = [
  {
    name: "_+_",
    overloads: [
      overload("add_int64", [IntType, IntType], IntType, addInt),
      overload("add_string", [StringType, StringType], StringType, ([a, b]) => (a as string) + (b as string), false),
      overload("add_list", [listType(A), listType(A)], listType(A), ([a, b]) => {
        return new ArrayList([...(a as CelList), ...(b as CelList)]);
      }),
    ],
  },
  {
    name: "_/_",
    overloads: [
      overload("divide_int64", [IntType, IntType], IntType, ([a, b]) =>
        b === 0n ? new CelError("division by zero") : (a as bigint) / (b as bigint),
      ),
    ],
  },
  {
    name: "_<=_",
    overloads: [
      overload("less_equals_int64", [IntType, IntType], BoolType, ([a, b]) => (a as bigint) <= (b as bigint)),
    ],
  },
  {
    name: "_>_",
    overloads: [overload("greater_int64", [IntType, IntType], BoolType, ([a, b]) => (a as bigint) > (b as bigint))],
  },
  {
    name: "_==_",
    overloads: [overload("equals", [A, A], BoolType, ([a, b]) => celEquals(a as CelValue, b as CelValue))],
  },
  { name: "!_", overloads: [overload("logical_not", [BoolType], BoolType, ([a]) => !(a as boolean))] },
  {
    name: "size",
    overloads: [
      overload("size_string", [StringType], IntType, ([s]) => BigInt((s as string).length)),
      overload("string_size", [StringType], IntType, ([s]) => BigInt((s as string).length), true),
      overload("size_list", [listType(A)], IntType, ([l]) => BigInt((l as CelList).size)),
      overload("list_size", [listType(A)], IntType, ([l]) => BigInt((l as CelList).size), true),
    ],
  },
  {
    name: "contains",
    overloads: [
      {
        ...overload(
          "contains_string",
          [StringType, StringType],
          BoolType,
          ([s, t]) => (s as string).includes(t as string),
          true,
        ),
        cost: { actual: ([s, t]) => Math.ceil(((s as string).length * (t as string).length) / 100) },
      },
    ],
  },
  {
    name: "@in",
    overloads: [
      overload("in_list", [A, listType(A)], BoolType, ([x, l]) =>
        [...(l as CelList)].some((y) => celEquals(x as CelValue, y)),
      ),
      overload("in_map", [A, { kind: "map", key: A, value: DynType }], BoolType, ([x, m]) =>
        (m as CelMap).has(x as CelValue),
      ),
    ],
  },
  { name: "int", overloads: [overload("string_to_int64", [StringType], IntType, ([s]) => BigInt(s as string))] },
  { name: "dyn", overloads: [overload("to_dyn", [DynType], DynType, ([v]) => v as CelValue)] },
  {
    name: "explode",
    overloads: [
      overload("explode_int", [IntType], IntType, () => {
        throw new Error("boom");
      }),
    ],
  },
  {
    name: "cost",
    overloads: [
      overload("cost_int", [IntType], IntType, ([n], ctx) => {
        ctx.addCost(Number(n));
        return n as CelValue;
      }),
    ],
  },
  {
    name: "firstError",
    nonStrict: true,
    overloads: [
      overload("first_error_dyn_dyn", [DynType, DynType], StringType, (args) =>
        args[0] instanceof CelError ? `left: ${args[0].message}` : "none",
      ),
    ],
  },
];

export interface TestEnvOptions {
  readonly functions?: readonly FunctionDecl[];
  readonly variables?: ReadonlyMap<string, CelType>;
  readonly types?: ReadonlyMap<string, CelType>;
  readonly container?: string;
}

/** The parts of an environment the planner reads. */
export function testEnv(options: TestEnvOptions = {}): CelEnv {
  return {
    functions: new Map((options.functions ?? testFunctions).map((f) => [f.name, f])),
    variables: options.variables ?? new Map(),
    types: options.types ?? new Map(),
    container: options.container ?? "",
  } as unknown as CelEnv;
}

/** Plans and evaluates a tree with variables from a record. */
export function run(
  ast: ParsedAst | CheckedAst,
  vars: Record<string, CelValue> = {},
  env: CelEnv = testEnv(),
  costLimit?: number,
): EvalResult {
  const activation: Activation = (name) => (Object.hasOwn(vars, name) ? vars[name] : undefined);
  return plan(ast, env, costLimit === undefined ? {} : { costLimit }).eval(activation);
}

/** The value of a parsed-only tree. */
export function value(expr: Expr, vars: Record<string, CelValue> = {}, env?: CelEnv): CelValue {
  return run(parsed(expr), vars, env).value;
}

/** The error message of a parsed-only tree, or undefined when it did not fail. */
export function errorOf(expr: Expr, vars: Record<string, CelValue> = {}, env?: CelEnv): string | undefined {
  const result = value(expr, vars, env);
  return result instanceof CelError ? result.message : undefined;
}
