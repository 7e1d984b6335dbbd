// cel-go's debug strings: literals as Go prints them (%v doubles, strconv.Quote strings and bytes),
// layout, entry adornments and the checked form with types and references.
import { describe, expect, it } from "vitest";
import type { CheckedAst, Expr } from "../../../../runtime/cel/common/ast.js";
import { type CelType, IntType } from "../../../../runtime/cel/common/cel-types.js";
import {
  checkedAdorner,
  formatLiteral,
  kindAdorner,
  toDebugString,
} from "../../../../runtime/cel/common/debug-string.js";
import { CelUint } from "../../../../runtime/cel/common/values.js";
import { parseOk } from "./support.js";

describe("literals", () => {
  it.each([
    [0.1, "0.1"],
    [2, "2"],
    [100000, "100000"],
    [123456.5, "123456.5"],
    [1e6, "1e+06"],
    [123456789, "1.23456789e+08"],
    [1.5e300, "1.5e+300"],
    [0.0001, "0.0001"],
    [0.00001, "1e-05"],
    [-2.5e-7, "-2.5e-07"],
    [-0, "-0"],
    [Number.NaN, "NaN"],
    [Number.POSITIVE_INFINITY, "+Inf"],
    [Number.NEGATIVE_INFINITY, "-Inf"],
  ])("double %d prints as %s", (value, text) => {
    expect(formatLiteral(value)).toBe(text);
  });

  it.each([
    ["plain", '"plain"'],
    ['q"\\', '"q\\"\\\\"'],
    ["\x07\b\f\n\r\t\v", '"\\a\\b\\f\\n\\r\\t\\v"'],
    ["\x00\x1f\x7f", '"\\x00\\x1f\\x7f"'],
    ["\u0080\u00a0\u00ad\u00e9", '"\\u0080\\u00a0\\u00adé"'],
    ["\u200b\u3000☺😁", '"\\u200b\\u3000☺😁"'],
    ["\u{e0001}", '"\\U000e0001"'],
  ])("string %j", (value, text) => {
    expect(formatLiteral(value)).toBe(text);
  });

  it("prints bytes as Go quotes them: UTF-8 decoded, invalid bytes as \\x", () => {
    expect(formatLiteral(Uint8Array.from([0x61, 0xc3, 0xa9, 0xff, 0xed, 0xa0, 0x80, 0x0a]))).toBe(
      'b"aé\\xff\\xed\\xa0\\x80\\n"',
    );
    expect(formatLiteral(new CelUint(7n))).toBe("7u");
    expect(formatLiteral(-7n)).toBe("-7");
    expect(formatLiteral(null)).toBe("null");
  });
});

describe("layout", () => {
  it("adorns map entries and message fields, marking optional ones", () => {
    const ast = parseOk("M{?f: {?1: [a]}}", { enableOptionalSyntax: true });
    expect(toDebugString(ast.expr, kindAdorner)).toBe(
      [
        "M{",
        "  ?f:{",
        "    ?1^#*expr.Constant_Int64Value#:[",
        "      a^#*expr.Expr_IdentExpr#",
        "    ]^#*expr.Expr_ListExpr#^#*expr.Expr_CreateStruct_Entry#",
        "  }^#*expr.Expr_StructExpr#^#*expr.Expr_CreateStruct_Entry#",
        "}^#*expr.Expr_StructExpr#",
      ].join("\n"),
    );
  });

  it("prints without adornments by default", () => {
    expect(toDebugString(parseOk("has(a.b) && f() == [] && {}.c").expr)).toBe(
      "_&&_(\n  _&&_(\n    a.b~test-only~,\n    _==_(\n      f(),\n      []\n    )\n  ),\n  {}.c\n)",
    );
  });
});

describe("checked form", () => {
  it("shows types and references, overloads sorted", () => {
    const parsed = parseOk("a + 1");
    const [a, one] = (parsed.expr as Extract<Expr, { kind: "call" }>).args as [Expr, Expr];
    const checked: CheckedAst = {
      ...parsed,
      types: new Map<number, CelType>([
        [parsed.expr.id, IntType],
        [a.id, IntType],
        [one.id, IntType],
      ]),
      references: new Map([
        [parsed.expr.id, { overloadIds: ["add_int64", "add_double"] }],
        [a.id, { name: "a" }],
      ]),
    };
    expect(
      toDebugString(
        checked.expr,
        checkedAdorner(checked, (t) => t.kind),
      ),
    ).toBe("_+_(\n  a~int^a,\n  1~int\n)~int^add_double|add_int64");
  });
});
