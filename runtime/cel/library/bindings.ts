// cel-go's ext.Bindings: `cel.bind(name, init, result)` evaluates `result` with `name` bound to `init`.
// The macro expands to a comprehension over an empty list whose accumulator is the variable, so the
// checker and planner need nothing new; Kubernetes enables it from 1.28.
import type { Expr } from "../common/ast.js";
import { type CelLibrary, type MacroDecl, MacroError, type MacroHelper } from "../common/decls.js";

const UNUSED_ITER_VAR = "#unused";

/** `result` with `name` bound to `init`, as cel-go expands `cel.bind`. */
export function bind(h: MacroHelper, name: string, init: Expr, result: Expr): Expr {
  return h.fold(UNUSED_ITER_VAR, h.list(), name, init, h.literal(false), h.ident(name), result);
}

const celBind: MacroDecl = {
  name: "bind",
  argCount: 3,
  member: true,
  expand(h, target, args) {
    // Only `cel.bind(…)`: another receiver leaves the call as written.
    if (target?.kind !== "ident" || target.name !== "cel") return undefined;
    const [name, init, result] = args as [Expr, Expr, Expr];
    if (name.kind !== "ident") throw new MacroError("cel.bind() variable names must be simple identifiers", name);
    return bind(h, name.name, init, result);
  },
};

export const bindingsLibrary: CelLibrary = { name: "cel.lib.ext.cel.bindings", macros: [celBind] };
