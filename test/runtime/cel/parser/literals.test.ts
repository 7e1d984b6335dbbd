// Literal values and the lexer's edge cases: integer ranges, doubles, every string and bytes escape,
// raw and triple-quoted strings, and the limits on expression size and nesting.
import { describe, expect, it } from "vitest";
import type { ConstantValue } from "../../../../runtime/cel/common/ast.js";
import { kindAdorner, toDebugString } from "../../../../runtime/cel/common/debug-string.js";
import { CelUint, INT64_MAX, INT64_MIN, UINT64_MAX } from "../../../../runtime/cel/common/values.js";
import { parseErrors, parseOk } from "./support.js";

function literal(source: string): ConstantValue {
  const expr = parseOk(source).expr;
  if (expr.kind !== "const") throw new Error(`${source} is a ${expr.kind}`);
  return expr.value;
}

const error = (source: string, message: string, column = 1): string =>
  `ERROR: <input>:1:${column}: ${message}\n | ${source}\n | ${".".repeat(column - 1)}^`;

describe("integers", () => {
  it.each([
    ["42", 42n],
    ["007", 7n],
    ["0x2A", 42n],
    ["0xff", 255n],
    ["-0x10", -16n],
    ["- 3", -3n],
    ["9223372036854775807", INT64_MAX],
    ["-9223372036854775808", INT64_MIN],
  ])("%s", (source, value) => {
    expect(literal(source)).toBe(value);
  });

  it.each(["9223372036854775808", "-9223372036854775809", "0x8000000000000000", "0xFFFFFFFFFFFFFFFFF"])(
    "%s is out of range",
    (source) => {
      expect(parseErrors(source)).toBe(error(source, "invalid int literal"));
    },
  );

  it("reads `--1` as negating twice and `-(1)` as a negation", () => {
    expect(literal("--1")).toBe(1n);
    expect(toDebugString(parseOk("-(1)").expr)).toBe("-_(\n  1\n)");
    expect(toDebugString(parseOk("---a").expr)).toBe("-_(\n  a\n)");
  });

  it("keeps the sign with the literal before a member access: -2.abs() is (-2).abs()", () => {
    expect(toDebugString(parseOk("-2.abs()").expr)).toBe("-2.abs()");
    expect(toDebugString(parseOk("-x.abs()").expr)).toBe("-_(\n  x.abs()\n)");
  });
});

describe("unsigned integers", () => {
  it.each([
    ["42u", 42n],
    ["42U", 42n],
    ["0x2Au", 42n],
    ["18446744073709551615u", UINT64_MAX],
  ])("%s", (source, value) => {
    expect(literal(source)).toEqual(new CelUint(value));
  });

  it("rejects values above 2^64-1", () => {
    expect(parseErrors("18446744073709551616u")).toBe(error("18446744073709551616u", "invalid uint literal"));
  });

  it("negates an unsigned literal as a call (uints have no sign)", () => {
    expect(toDebugString(parseOk("-1u").expr, kindAdorner)).toBe(
      "-_(\n  1u^#*expr.Constant_Uint64Value#\n)^#*expr.Expr_CallExpr#",
    );
  });
});

describe("doubles", () => {
  it.each([
    ["1.5", 1.5],
    [".5", 0.5],
    ["-.5", -0.5],
    ["1e3", 1000],
    ["1E-3", 0.001],
    ["2.5e+2", 250],
    ["1e-400", 0],
    ["1.7976931348623157e308", Number.MAX_VALUE],
  ])("%s", (source, value) => {
    expect(literal(source)).toBe(value);
  });

  it("keeps negative zero", () => {
    expect(Object.is(literal("-0.0"), -0)).toBe(true);
  });

  it("rejects infinity", () => {
    expect(parseErrors("1e309")).toBe(error("1e309", "invalid double literal"));
  });

  it("ends a number at the longest valid prefix: `1.e` is 1 then `.e`", () => {
    expect(toDebugString(parseOk("1.e").expr)).toBe("1.e");
    expect(toDebugString(parseOk("1.5.e3").expr)).toBe("1.5.e3");
    expect(toDebugString(parseOk("[0x1u, 0x1, 1u]").expr)).toBe("[\n  1u,\n  1,\n  1u\n]");
  });
});

describe("strings", () => {
  it.each([
    ['"\\a\\b\\f\\n\\r\\t\\v\\\\\\"\\\'\\?\\`"', "\x07\b\f\n\r\t\v\\\"'?`"],
    ["'\\x41\\X42\\u0043\\U00000044\\105'", "ABCDE"],
    ['"\\xC3\\xA9"', "\u00c3\u00a9"],
    ['"\\U0001F600"', "😀"],
    ['"é😁"', "é😁"],
    ["'single \"quote\"'", 'single "quote"'],
    ['r"\\n\\x"', "\\n\\x"],
    ["R'\\'", "\\"],
    ["'''a\nb'''", "a\nb"],
    ['"""a"b""c"""', 'a"b""c'],
    ["'''a\r\nb\rc'''", "a\nb\nc"],
    ["r'''\\x\r\n'''", "\\x\n"],
    ["''", ""],
    ['""""""', ""],
  ])("%s", (source, value) => {
    expect(literal(source)).toBe(value);
  });

  it.each(['"\\ud800"', '"\\uDFFF"', '"\\U00110000"'])("%s is not a code point", (source) => {
    expect(parseErrors(source)).toBe(error(source, "invalid unicode code point"));
  });

  it("reports a bad escape as the lexer does, at the string", () => {
    expect(parseErrors('"\\q" + 1')).toBe(
      [
        "ERROR: <input>:1:1: Syntax error: token recognition error at: '\"\\q'",
        ' | "\\q" + 1',
        " | ^",
        "ERROR: <input>:1:4: Syntax error: token recognition error at: '\" + 1'",
        ' | "\\q" + 1',
        " | ...^",
        "ERROR: <input>:1:9: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}",
        ' | "\\q" + 1',
        " | ........^",
      ].join("\n"),
    );
  });
});

describe("bytes", () => {
  it.each([
    ['b"abc"', [97, 98, 99]],
    ["B'\\x00\\xff\\377'", [0, 255, 255]],
    ['b"é"', [0xc3, 0xa9]],
    ['b"\\a\\n"', [7, 10]],
    ['br"\\x41"', [0x5c, 0x78, 0x34, 0x31]],
    ["b'''\r\n'''", [10]],
  ])("%s", (source, bytes) => {
    expect(literal(source)).toEqual(Uint8Array.from(bytes));
  });

  it.each(['b"\\u00e9"', 'b"\\U000000e9"'])("%s: unicode escapes are not bytes", (source) => {
    expect(parseErrors(source)).toBe(error(source, "unable to unescape string"));
  });
});

describe("booleans, null, identifiers and keywords", () => {
  it("reads true, false and null", () => {
    expect(literal("true")).toBe(true);
    expect(literal("false")).toBe(false);
    expect(literal("null")).toBe(null);
  });

  it("allows keyword-like names where cel-go does: fields, member functions, message names", () => {
    expect(toDebugString(parseOk("a.while + a.if()").expr)).toBe("_+_(\n  a.while,\n  a.if()\n)");
    expect(toDebugString(parseOk("import.Msg{for: 1, in_: 2}").expr)).toBe("import.Msg{\n  for:1,\n  in_:2\n}");
    expect(toDebugString(parseOk("trueish || nulls").expr)).toBe("_||_(\n  trueish,\n  nulls\n)");
  });

  it.each(["while", "var(1)", ".package"])("%s is reserved", (source) => {
    const name = source.replace(/[^a-z]/g, "");
    expect(parseErrors(source)).toBe(error(source, `reserved identifier: ${name}`));
  });
});

describe("limits", () => {
  it("counts the expression size in code points (100000)", () => {
    const big = `'${"😁".repeat(99_998)}'`;
    expect(literal(big)).toHaveLength(2 * 99_998);
    expect(parseErrors("a".repeat(100_001))).toBe(
      "ERROR: <input>:-1:0: expression code point size exceeds limit: size: 100001, limit 100000",
    );
  });

  it("limits the nesting of each grammar rule to 250", () => {
    const nest = (n: number): string => `${"(".repeat(n)}1${")".repeat(n)}`;
    expect(literal(nest(249))).toBe(1n);
    expect(parseErrors(nest(250))).toBe("ERROR: <input>:-1:0: expression recursion limit exceeded: 250");
    expect(parseOk(`${"[".repeat(249)}1${"]".repeat(249)}`).expr.kind).toBe("list");
    expect(parseErrors(`${"[".repeat(250)}1${"]".repeat(250)}`)).toBe(
      "ERROR: <input>:-1:0: expression recursion limit exceeded: 250",
    );
  });

  it("limits the depth of operators, selections and indexing to 250", () => {
    expect(parseOk(`a${".b".repeat(250)}`).expr.kind).toBe("select");
    expect(parseErrors(`a${".b".repeat(251)}`)).toBe("ERROR: <input>:-1:0: max recursion depth exceeded");
    expect(parseErrors(`1${" + 1".repeat(251)}`)).toBe("ERROR: <input>:-1:0: max recursion depth exceeded");
    // && and || chains are balanced, so long ones stay shallow.
    expect(parseOk(`a${" && a".repeat(5000)}`).expr.kind).toBe("call");
  });

  it("stops after 100 syntax errors", () => {
    const lines = parseErrors("$".repeat(150)).split("\n");
    expect(lines.filter((l) => l.startsWith("ERROR"))).toHaveLength(101);
    expect(lines.at(-3)).toBe("ERROR: <input>:1:101: Syntax error: More than 100 syntax errors");
  });

  it("honours smaller limits", () => {
    expect(parseErrors("[[1]]", { maxRecursionDepth: 2 })).toBe(
      "ERROR: <input>:-1:0: expression recursion limit exceeded: 2",
    );
    expect(parseErrors("abc", { expressionSizeCodePointLimit: 2 })).toBe(
      "ERROR: <input>:-1:0: expression code point size exceeds limit: size: 3, limit 2",
    );
  });
});
