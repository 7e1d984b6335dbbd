// Macro lookup and expansion: the standard macros' forms, and what other libraries' macros (cel.bind,
// optMap, two-variable comprehensions) rely on: lookup by argument count then variadic, declining to
// expand, errors at an argument or at the call, copies with fresh ids, maps and two-variable folds.
import { describe, expect, it } from "vitest";
import type { Expr } from "../../../../runtime/cel/common/ast.js";
import { kindAndIdAdorner, toDebugString } from "../../../../runtime/cel/common/debug-string.js";
import { type MacroDecl, MacroError, macroKey } from "../../../../runtime/cel/common/decls.js";
import type { ParserMacroHelper } from "../../../../runtime/cel/parser/macro-helper.js";
import { parseErrors, parseOk, STANDARD_MACROS } from "./support.js";

function withMacros(...macros: MacroDecl[]): { macros: ReadonlyMap<string, MacroDecl> } {
  const all = new Map(STANDARD_MACROS);
  for (const m of macros) all.set(macroKey(m.name, m.member, m.argCount), m);
  return { macros: all };
}

const show = (source: string, options = {}): string => toDebugString(parseOk(source, options).expr);

describe("standard macros", () => {
  it("expands exists_one and existsOne alike", () => {
    expect(show("l.exists_one(x, x)")).toBe(show("l.existsOne(x, x)"));
    expect(show("l.exists_one(x, x)")).toContain("_==_(\n    @result,\n    1\n  )");
  });

  it("leaves calls with other argument counts alone", () => {
    expect(show("l.all(x)")).toBe("l.all(\n  x\n)");
    expect(show("has(a.b, c)")).toBe("has(\n  a.b,\n  c\n)");
    expect(show("all(l, x, x)")).toBe("all(\n  l,\n  x,\n  x\n)");
  });

  it("records the call each expansion replaced", () => {
    const ast = parseOk("l.map(x, x + 1)");
    const call = ast.sourceInfo.macroCalls.get(ast.expr.id);
    expect(call && toDebugString(call)).toBe("l.map(\n  x,\n  _+_(\n    x,\n    1\n  )\n)");
  });
});

describe("library macros", () => {
  const noop: MacroDecl = { name: "noop", member: false, expand: () => undefined };
  const one: MacroDecl = { name: "pick", argCount: 1, member: false, expand: (h) => h.literal("one") };
  const many: MacroDecl = { name: "pick", member: false, expand: (h) => h.literal("many") };

  it("keeps the call, ids unchanged, when the macro declines", () => {
    expect(toDebugString(parseOk("noop(1, 2)", withMacros(noop)).expr, kindAndIdAdorner)).toBe(
      "noop(\n  1^#2:*expr.Constant_Int64Value#,\n  2^#3:*expr.Constant_Int64Value#\n)^#1:*expr.Expr_CallExpr#",
    );
  });

  it("prefers the macro for the exact argument count over the variadic one", () => {
    expect(show("[pick(a), pick(a, b), pick()]", withMacros(one, many))).toBe('[\n  "one",\n  "many",\n  "many"\n]');
    expect(show("x.pick(a)", withMacros(one, many))).toBe("x.pick(\n  a\n)");
  });

  it("reports a MacroError at the argument it names, or at the call", () => {
    const strict: MacroDecl = {
      name: "strict",
      argCount: 2,
      member: true,
      expand: (h, _target, args) => {
        if (args[0]?.kind !== "ident") throw new MacroError("first argument must be a name", args[0] as Expr);
        throw new MacroError("second argument rejected", h.literal(null));
      },
    };
    expect(parseErrors("a.strict(1, 2)", withMacros(strict))).toBe(
      "ERROR: <input>:1:10: first argument must be a name\n | a.strict(1, 2)\n | .........^",
    );
    expect(parseErrors("a.strict(b, 2)", withMacros(strict))).toBe(
      "ERROR: <input>:1:9: second argument rejected\n | a.strict(b, 2)\n | ........^",
    );
  });

  it("builds a cel.bind-style fold and declines on other receivers", () => {
    const bind: MacroDecl = {
      name: "bind",
      argCount: 3,
      member: true,
      expand: (h, target, args) => {
        if (target?.kind !== "ident" || target.name !== "cel") return undefined;
        const [name, init, body] = args as [Expr, Expr, Expr];
        if (name.kind !== "ident") throw new MacroError("cel.bind() variable names must be simple identifiers", name);
        return h.fold("#unused", h.list(), name.name, init, h.literal(false), h.ident(name.name), body);
      },
    };
    expect(show("cel.bind(v, 1, v + v)", withMacros(bind))).toBe(
      [
        "__comprehension__(",
        "  // Variable",
        "  #unused,",
        "  // Target",
        "  [],",
        "  // Accumulator",
        "  v,",
        "  // Init",
        "  1,",
        "  // LoopCondition",
        "  false,",
        "  // LoopStep",
        "  v,",
        "  // Result",
        "  _+_(",
        "    v,",
        "    v",
        "  ))",
      ].join("\n"),
    );
    expect(show("x.bind(v, 1, v)", withMacros(bind))).toBe("x.bind(\n  v,\n  1,\n  v\n)");
  });

  it("copies an argument with fresh ids at the same positions", () => {
    const twice: MacroDecl = {
      name: "twice",
      argCount: 1,
      member: false,
      expand: (h, _target, args) => h.call("_+_", args[0] as Expr, (h as ParserMacroHelper).copy(args[0] as Expr)),
    };
    const ast = parseOk("twice(a.b)", withMacros(twice));
    expect(toDebugString(ast.expr, kindAndIdAdorner).replace(/\s+/g, "")).toBe(
      "_+_(a^#2:*expr.Expr_IdentExpr#.b^#3:*expr.Expr_SelectExpr#,a^#5:*expr.Expr_IdentExpr#.b^#4:*expr.Expr_SelectExpr#)^#6:*expr.Expr_CallExpr#",
    );
    const at = (id: number): number | undefined => ast.sourceInfo.positions.get(id);
    expect([at(4), at(5), at(6)]).toEqual([at(3), at(2), 5]);
  });

  it("builds maps and two-variable comprehensions", () => {
    const transform: MacroDecl = {
      name: "transformMap",
      argCount: 3,
      member: true,
      expand: (h, target, args) => {
        const [k, v, fn] = args as [Expr, Expr, Expr];
        if (k.kind !== "ident" || v.kind !== "ident") throw new MacroError("argument must be a simple name", k);
        const helper = h as ParserMacroHelper;
        const step = h.call("cel.@mapInsert", helper.accuIdent(), h.ident(k.name), fn);
        return h.fold(
          k.name,
          target as Expr,
          h.accuName,
          helper.map(),
          h.literal(true),
          step,
          helper.accuIdent(),
          v.name,
        );
      },
    };
    expect(show("m.transformMap(k, v, v + 1)", withMacros(transform))).toBe(
      [
        "__comprehension__(",
        "  // Variable",
        "  k,",
        "  v,",
        "  // Target",
        "  m,",
        "  // Accumulator",
        "  @result,",
        "  // Init",
        "  {},",
        "  // LoopCondition",
        "  true,",
        "  // LoopStep",
        "  cel.@mapInsert(",
        "    @result,",
        "    k,",
        "    _+_(",
        "      v,",
        "      1",
        "    )",
        "  ),",
        "  // Result",
        "  @result)",
      ].join("\n"),
    );
  });
});
