// The parser's expression ids, positions, optional and escaped syntax, and syntax errors for the
// mistakes people make in rules. Ids follow cel-go's visitor (operands before their operator, `&&`
// and `||` chains balanced); the cel-spec suites test the rest against cel-go's own output.
import { describe, expect, it } from "vitest";
import { kindAndIdAdorner, toDebugString } from "../../../../runtime/cel/common/debug-string.js";
import { CelIssues } from "../../../../runtime/cel/common/issues.js";
import { parse } from "../../../../runtime/cel/parser/parser.js";
import { parseErrors, parseOk, STANDARD_MACROS } from "./support.js";

/** The debug string with ids, whitespace removed, with the kind names shortened. */
function ids(source: string, options = {}): string {
  return toDebugString(parseOk(source, options).expr, kindAndIdAdorner)
    .replace(/\s+/g, "")
    .replace(/\*expr\.(Expr_|Constant_)?/g, "");
}

describe("expression ids", () => {
  it.each([
    ["a + b * c", "_+_(a^#1:IdentExpr#,_*_(b^#3:IdentExpr#,c^#5:IdentExpr#)^#4:CallExpr#)^#2:CallExpr#"],
    ["!a", "!_(a^#2:IdentExpr#)^#1:CallExpr#"],
    ["a ? b : c", "_?_:_(a^#1:IdentExpr#,b^#3:IdentExpr#,c^#4:IdentExpr#)^#2:CallExpr#"],
    [
      "a || b || c || d",
      "_||_(_||_(a^#1:IdentExpr#,b^#2:IdentExpr#)^#3:CallExpr#,_||_(c^#4:IdentExpr#,d^#6:IdentExpr#)^#7:CallExpr#)^#5:CallExpr#",
    ],
    ["a.b(c)[0]", "_[_](a^#1:IdentExpr#.b(c^#3:IdentExpr#)^#2:CallExpr#,0^#5:Int64Value#)^#4:CallExpr#"],
    ["f(x, 1)", "f(x^#2:IdentExpr#,1^#3:Int64Value#)^#1:CallExpr#"],
    ["[1, 2]", "[1^#2:Int64Value#,2^#3:Int64Value#]^#1:ListExpr#"],
    ["{'k': v}", '{"k"^#3:StringValue#:v^#4:IdentExpr#^#2:CreateStruct_Entry#}^#1:StructExpr#'],
    ["a.b.M{f: 1}", "a.b.M{f:1^#3:Int64Value#^#2:CreateStruct_Entry#}^#1:StructExpr#"],
    [".a.b", ".a^#1:IdentExpr#.b^#2:SelectExpr#"],
  ])("%s", (source, expected) => {
    expect(ids(source)).toBe(expected);
  });

  it("gives macro expansions fresh ids after the call's arguments", () => {
    expect(ids("[1].all(x, x > 0)")).toBe(
      "__comprehension__(//Variablex,//Target[1^#2:Int64Value#]^#1:ListExpr#,//Accumulator@result," +
        "//Inittrue^#8:BoolValue#,//LoopCondition@not_strictly_false(@result^#9:IdentExpr#)^#10:CallExpr#," +
        "//LoopStep_&&_(@result^#11:IdentExpr#,_>_(x^#5:IdentExpr#,0^#7:Int64Value#)^#6:CallExpr#)^#12:CallExpr#," +
        "//Result@result^#13:IdentExpr#)^#14:ComprehensionExpr#",
    );
  });
});

describe("positions", () => {
  it("are code-point offsets of each node's token", () => {
    const ast = parseOk("'😁' + b.c\n && d(e)");
    expect([...ast.sourceInfo.positions]).toEqual([
      [1, 0], // '😁'
      [2, 4], // +
      [3, 6], // b
      [4, 7], // .c
      [5, 15], // d( — a call is at its parenthesis
      [6, 16], // e
      [7, 11], // &&
    ]);
  });

  it("drop the replaced macro call and place the expansion at the call", () => {
    const ast = parseOk("x.exists(y, y)");
    expect(ast.sourceInfo.positions.has(2)).toBe(false);
    expect(ast.sourceInfo.positions.get(ast.expr.id)).toBe(8);
    const call = ast.sourceInfo.macroCalls.get(ast.expr.id);
    expect(call?.kind === "call" && call.function).toBe("exists");
  });
});

describe("optional syntax", () => {
  const optional = { enableOptionalSyntax: true };

  it("parses `.?`, `[?]` and optional entries when enabled", () => {
    expect(ids("a.?b", optional)).toBe('_?._(a^#1:IdentExpr#,"b"^#2:StringValue#)^#3:CallExpr#');
    expect(ids("a[?0]", optional)).toBe("_[?_](a^#1:IdentExpr#,0^#3:Int64Value#)^#2:CallExpr#");
    const list = parseOk("[a, ?b, ?c]", optional).expr;
    expect(list.kind === "list" && list.optionalIndices).toEqual([1, 2]);
    expect(toDebugString(parseOk("{?1: a}", optional).expr)).toBe("{\n  ?1:a\n}");
    expect(toDebugString(parseOk("M{?f: a}", optional).expr)).toBe("M{\n  ?f:a\n}");
  });

  it("reports it as unsupported otherwise", () => {
    expect(parseErrors("[?a] == {?1: b}")).toBe(
      [
        "ERROR: <input>:1:2: unsupported syntax '?'",
        " | [?a] == {?1: b}",
        " | .^",
        "ERROR: <input>:1:10: unsupported syntax '?'",
        " | [?a] == {?1: b}",
        " | .........^",
      ].join("\n"),
    );
  });
});

describe("escaped field names", () => {
  it("reads backquoted names when enabled", () => {
    expect(toDebugString(parseOk("a.`b-c`.`d/e f`", { enableIdentEscapeSyntax: true }).expr)).toBe("a.b-c.d/e f");
  });

  it("reports them as unsupported otherwise", () => {
    expect(parseErrors("a.`b-c`")).toBe("ERROR: <input>:1:3: unsupported syntax: '`'\n | a.`b-c`\n | ..^");
  });
});

describe("syntax errors", () => {
  const expectAny =
    "{'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}";
  const at = (column: number, message: string, source: string): string =>
    `ERROR: <input>:1:${column}: ${message}\n | ${source}\n | ${".".repeat(column - 1)}^`;

  it.each([
    ["self.x == ", 11, `Syntax error: mismatched input '<EOF>' expecting ${expectAny}`],
    ["has(self.x", 11, "Syntax error: missing ')' at '<EOF>'"],
    ["self.items.all(i, i > 0", 24, "Syntax error: missing ')' at '<EOF>'"],
    ["a[1", 4, "Syntax error: missing ']' at '<EOF>'"],
    ["[1, 2", 6, "Syntax error: mismatched input '<EOF>' expecting {']', ','}"],
    ["{'a': 1", 8, "Syntax error: mismatched input '<EOF>' expecting {'}', ','}"],
    ["a ? b", 6, "Syntax error: mismatched input '<EOF>' expecting ':'"],
    ["a.b.", 5, "Syntax error: no viable alternative at input '.'"],
    ["a..b", 3, "Syntax error: no viable alternative at input '..'"],
    ["self.true", 6, "Syntax error: mismatched input 'true' expecting IDENTIFIER"],
    ["1 +* 2", 4, `Syntax error: extraneous input '*' expecting ${expectAny}`],
    ["a b", 3, "Syntax error: extraneous input 'b' expecting <EOF>"],
    ["!", 2, `Syntax error: extraneous input '<EOF>' expecting ${expectAny}`],
    ["x.map(1, 2)", 7, "argument is not an identifier"],
    ["x.all(y.z, true)", 8, "argument must be a simple name"],
    ["x.map(__result__, 1)", 7, "iteration variable overwrites accumulator variable"],
    ["has(x)", 5, "invalid argument to has() macro"],
  ])("%s", (source, column, message) => {
    expect(parseErrors(source)).toBe(at(column, message, source));
  });

  it("skips comments and whitespace but not \\v", () => {
    expect(toDebugString(parseOk("a // c: }\n+\tb\f\r").expr)).toBe("_+_(\n  a,\n  b\n)");
    expect(parseErrors("1 \v + 2")).toBe(at(3, "Syntax error: token recognition error at: '\v'", "1 \v + 2"));
  });

  it("reports unrecognized characters and continues", () => {
    expect(parseErrors("self.x = 1")).toBe(
      [
        at(8, "Syntax error: token recognition error at: '= '", "self.x = 1"),
        at(10, "Syntax error: extraneous input '1' expecting <EOF>", "self.x = 1"),
      ].join("\n"),
    );
  });

  it("lists errors by position as cel-go does, and names the source", () => {
    const result = parse("a | b", { macros: STANDARD_MACROS, enableOptionalSyntax: false, description: "rule" });
    expect(result).toBeInstanceOf(CelIssues);
    expect((result as CelIssues).issues.map((i) => [i.offset, i.message])).toEqual([
      [2, "Syntax error: token recognition error at: '| '"],
      [4, "Syntax error: extraneous input 'b' expecting <EOF>"],
    ]);
    expect((result as CelIssues).toDisplayString()).toMatch(/^ERROR: rule:1:3: /);
  });
});
