// CEL's standard macros, expanded exactly as cel-go's parser expands them (same node order, so the
// same ids): has() becomes a presence test; all, exists, exists_one/existsOne, map and filter become
// comprehensions over the hidden accumulator `@result`.
import type { Expr } from "../common/ast.js";
import { type MacroDecl, MacroError, type MacroHelper } from "../common/decls.js";

/** cel-go's traditional accumulator name; an iteration variable may not take it either. */
const LEGACY_ACCUMULATOR_NAME = "__result__";

type Quantifier = "all" | "exists" | "existsOne";

/** The iteration variable, checked as cel-go checks it. */
function iterationVariable(helper: MacroHelper, arg: Expr, notIdent: string): string {
  if (arg.kind !== "ident") throw new MacroError(notIdent, arg);
  if (arg.name === helper.accuName || arg.name === LEGACY_ACCUMULATOR_NAME)
    throw new MacroError("iteration variable overwrites accumulator variable", arg);
  return arg.name;
}

function quantifier(kind: Quantifier): MacroDecl["expand"] {
  return (h, target, args) => {
    const v = iterationVariable(h, args[0] as Expr, "argument must be a simple name");
    const predicate = args[1] as Expr;
    let init: Expr;
    let condition: Expr;
    let step: Expr;
    let result: Expr;
    if (kind === "all") {
      init = h.literal(true);
      condition = h.call("@not_strictly_false", h.ident(h.accuName));
      step = h.call("_&&_", h.ident(h.accuName), predicate);
      result = h.ident(h.accuName);
    } else if (kind === "exists") {
      init = h.literal(false);
      condition = h.call("@not_strictly_false", h.call("!_", h.ident(h.accuName)));
      step = h.call("_||_", h.ident(h.accuName), predicate);
      result = h.ident(h.accuName);
    } else {
      init = h.literal(0n);
      condition = h.literal(true);
      step = h.call("_?_:_", predicate, h.call("_+_", h.ident(h.accuName), h.literal(1n)), h.ident(h.accuName));
      result = h.call("_==_", h.ident(h.accuName), h.literal(1n));
    }
    return h.fold(v, target as Expr, h.accuName, init, condition, step, result);
  };
}

/** `range.map(v, f)` and `range.map(v, p, f)`: the list of f for the elements (satisfying p). */
const expandMap: MacroDecl["expand"] = (h, target, args) => {
  const v = iterationVariable(h, args[0] as Expr, "argument is not an identifier");
  const filter = args.length === 3 ? (args[1] as Expr) : undefined;
  const fn = args[args.length - 1] as Expr;
  const init = h.list();
  const condition = h.literal(true);
  let step = h.call("_+_", h.ident(h.accuName), h.list(fn));
  if (filter !== undefined) step = h.call("_?_:_", filter, step, h.ident(h.accuName));
  return h.fold(v, target as Expr, h.accuName, init, condition, step, h.ident(h.accuName));
};

/** `range.filter(v, p)`: the elements satisfying p. */
const expandFilter: MacroDecl["expand"] = (h, target, args) => {
  const element = args[0] as Expr;
  const v = iterationVariable(h, element, "argument is not an identifier");
  const init = h.list();
  const condition = h.literal(true);
  const append = h.call("_+_", h.ident(h.accuName), h.list(element));
  const step = h.call("_?_:_", args[1] as Expr, append, h.ident(h.accuName));
  return h.fold(v, target as Expr, h.accuName, init, condition, step, h.ident(h.accuName));
};

const receiver = (name: string, argCount: number, expand: MacroDecl["expand"]): MacroDecl => ({
  name,
  argCount,
  member: true,
  expand,
});

export const standardMacros: readonly MacroDecl[] = [
  {
    name: "has",
    argCount: 1,
    member: false,
    expand: (h, _target, args) => {
      const arg = args[0] as Expr;
      if (arg.kind !== "select") throw new MacroError("invalid argument to has() macro", arg);
      return h.presenceTest(arg.operand, arg.field);
    },
  },
  receiver("all", 2, quantifier("all")),
  receiver("exists", 2, quantifier("exists")),
  receiver("exists_one", 2, quantifier("existsOne")),
  receiver("existsOne", 2, quantifier("existsOne")),
  receiver("map", 2, expandMap),
  receiver("map", 3, expandMap),
  receiver("filter", 2, expandFilter),
];
