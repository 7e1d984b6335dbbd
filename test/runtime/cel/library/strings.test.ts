// Table tests for cel-go's ext.Strings as kapi implements it (runtime/cel/library/strings.ts and
// string-format.ts): every function by overload id, both format generations, the compile-time format
// check and Kubernetes' costs. Expected values and error texts are cel-go's (ext/strings_test.go and
// the cel-spec string_ext conformance file).
import { describe, expect, it } from "vitest";
import type { CheckedAst, Expr } from "../../../../runtime/cel/common/ast.js";
import {
  type CelType,
  DynType,
  IntType,
  listType,
  objectType,
  StringType,
} from "../../../../runtime/cel/common/cel-types.js";
import type { CelLibrary, OverloadCost } from "../../../../runtime/cel/common/decls.js";
import {
  ArrayList,
  CelDuration,
  CelError,
  CelList,
  CelOptional,
  CelTimestamp,
  CelTypeValue,
  CelUint,
  type CelValue,
  HashMap,
  INT64_MAX,
} from "../../../../runtime/cel/common/values.js";
import type { ContextualCost } from "../../../../runtime/cel/library/kubernetes-call-cost.js";
import {
  LATEST_STRINGS_VERSION,
  stringFormatIssues,
  stringsLibrary,
  stringsLibraryAt,
} from "../../../../runtime/cel/library/strings.js";
import { evaluator, itHolds } from "./evaluate.js";
import { call, overload } from "./kubernetes/call-overload.js";

const latest = stringsLibraryAt(LATEST_STRINGS_VERSION);

/** Lists become arrays and errors their messages, so results compare with toEqual. */
function plain(v: CelValue): unknown {
  if (v instanceof CelError) return { error: v.message };
  if (v instanceof CelList) return v.toArray().map(plain);
  return v;
}

function show(v: unknown): string {
  return JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? `${x}n` : x));
}

function table(library: CelLibrary, id: string, cases: readonly (readonly [CelValue[], unknown])[]): void {
  describe(id, () => {
    for (const [args, expected] of cases) {
      it(`${show(args)} → ${show(expected)}`, () => {
        expect(plain(call(library, id, ...args))).toEqual(expected);
      });
    }
  });
}

const err = (error: string) => ({ error });

describe("strings library functions", () => {
  table(stringsLibrary, "string_char_at_int", [
    [["tacocat", 3n], "o"],
    [["tacocat", 7n], ""],
    [["tacocat", 30n], err("index out of range: 30")],
    [["tacocat", -1n], err("index out of range: -1")],
    [["©αT", 1n], "α"],
    [["a😀b", 1n], "😀"],
    [["a😀b", 2n], "b"],
  ]);
  table(stringsLibrary, "string_index_of_string", [
    [["tacocat", ""], 0n],
    [["tacocat", "ac"], 1n],
    [["tacocat", "none"], -1n],
    [["ta©o©αT", "©"], 2n],
    [["ijk", "k"], 2n],
    [["hello wello", "hello wello"], 0n],
    [["", "foo"], -1n],
    [["a😀b😀", "b😀"], 2n],
  ]);
  table(stringsLibrary, "string_index_of_string_int", [
    [["tacocat", "", 3n], 3n],
    [["tacocat", "a", 3n], 5n],
    [["tacocat", "at", 3n], 5n],
    [["ta©o©αT", "©", 3n], 4n],
    [["ta©o©αT", "©αT", 3n], 4n],
    [["ta©o©αT", "©α", 5n], -1n],
    [["hello wello", "ello", 6n], 7n],
    [["tacocat", "a", 30n], err("index out of range: 30")],
    [["tacocat", "a", -1n], err("index out of range: -1")],
    [["😀a😀a", "a", 2n], 3n],
  ]);
  table(stringsLibrary, "string_last_index_of_string", [
    [["", "@@"], -1n],
    [["tacocat", ""], 7n],
    [["tacocat", "at"], 5n],
    [["tacocat", "none"], -1n],
    [["ta©o©αT", "©"], 4n],
    [["hello wello", "low"], -1n],
    [["hello wello", "hello wello"], 0n],
    [["😀a😀a", "😀"], 2n],
    [["ab", "abc"], -1n],
  ]);
  table(stringsLibrary, "string_last_index_of_string_int", [
    [["tacocat", "", 3n], 3n],
    [["tacocat", "a", 3n], 1n],
    [["ta©o©αT", "©", 3n], 2n],
    [["ta©o©αT", "©α", 4n], 4n],
    [["hello wello", "ello", 6n], 1n],
    [["bananananana", "nana", 7n], 6n],
    [["tacocat", "a", -1n], err("index out of range: -1")],
    [["tacocat", "a", 30n], err("index out of range: 30")],
    [["😀a😀a", "😀a", 3n], 2n],
  ]);
  table(stringsLibrary, "string_lower_ascii", [
    [["TacoCat"], "tacocat"],
    [["TacoCÆt Xii"], "tacocÆt xii"],
    [["already"], "already"],
  ]);
  table(stringsLibrary, "string_upper_ascii", [
    [["tacoCat"], "TACOCAT"],
    [["tacoCαt"], "TACOCαT"],
    [["TacoCÆt Xii"], "TACOCÆT XII"],
  ]);
  table(stringsLibrary, "string_replace_string_string", [
    [["12 days 12 hours", "{0}", "2"], "12 days 12 hours"],
    [["{0} days {0} hours", "{0}", "2"], "2 days 2 hours"],
    [["1 ©αT taco", "αT", "o©α"], "1 ©o©α taco"],
    [["hello hello", "", "_"], "_h_e_l_l_o_ _h_e_l_l_o_"],
    [["hello hello", "h", ""], "ello ello"],
    [["a$b", "$", "$$"], "a$$b"],
    [["h😀h", "", "-"], "-h-😀-h-"],
  ]);
  table(stringsLibrary, "string_replace_string_string_int", [
    [["{0} days {0} hours", "{0}", "2", 1n], "2 days {0} hours"],
    [["hello hello", "he", "we", -1n], "wello wello"],
    [["hello hello", "he", "we", 0n], "hello hello"],
    [["hello", "", "_", 2n], "_h_ello"],
    [["hi", "", "_", 10n], "_h_i_"],
  ]);
  table(stringsLibrary, "string_split_string", [
    [
      ["hello world", " "],
      ["hello", "world"],
    ],
    [
      ["abc", ""],
      ["a", "b", "c"],
    ],
    [
      ["a😀b", ""],
      ["a", "😀", "b"],
    ],
    [["", ","], [""]],
    [["", ""], []],
  ]);
  table(stringsLibrary, "string_split_string_int", [
    [["hello world events!", " ", 0n], []],
    [["hello world events!", " ", 1n], ["hello world events!"]],
    [
      ["hello hello hello", " ", 2n],
      ["hello", "hello hello"],
    ],
    [
      ["o©o©o©o", "©", -1n],
      ["o", "o", "o", "o"],
    ],
    [
      ["abc", "", 2n],
      ["a", "bc"],
    ],
    [
      ["abc", "", 5n],
      ["a", "b", "c"],
    ],
  ]);
  table(stringsLibrary, "string_substring_int", [
    [["tacocat", 4n], "cat"],
    [["tacocat", 7n], ""],
    [["tacocat", 40n], err("index out of range: 40")],
    [["tacocat", -1n], err("index out of range: -1")],
    [["a😀bc", 1n], "😀bc"],
  ]);
  table(stringsLibrary, "string_substring_int_int", [
    [["tacocat", 0n, 4n], "taco"],
    [["tacocat", 4n, 4n], ""],
    [["ta©o©αT", 2n, 6n], "©o©α"],
    [["ta©o©αT", 7n, 7n], ""],
    [["tacocat", 1n, 50n], err("index out of range: 50")],
    [["tacocat", 49n, 50n], err("index out of range: 49")],
    [["tacocat", 4n, 3n], err("invalid substring range. start: 4, end: 3")],
    [["a😀bc", 1n, 2n], "😀"],
  ]);
  table(stringsLibrary, "string_trim", [
    [[" \f\n\r\t\vtext  "], "text"],
    [["\u0085\u00a0\u1680text"], "text"],
    [["text\u2000\u2001\u2002\u2003\u2004\u2004\u2006\u2007\u2008\u2009"], "text"],
    [["\u200atext\u2028\u2029\u202F\u205F\u3000"], "text"],
    [["\u180etext\u200b\u200c\u200d\u2060\ufeff"], "\u180etext\u200b\u200c\u200d\u2060\ufeff"],
  ]);
  table(stringsLibrary, "list_join", [
    [[new ArrayList(["x", "y"])], "xy"],
    [[new ArrayList([])], ""],
    [[new ArrayList(["x", 1n])], err("join: invalid input: 1")],
  ]);
  table(stringsLibrary, "list_join_string", [
    [[new ArrayList(["x", "y"]), "-"], "x-y"],
    [[new ArrayList([]), "-"], ""],
    [[new ArrayList(["a"]), ", "], "a"],
  ]);
  table(stringsLibrary, "strings_quote", [
    [["first\nsecond"], '"first\\nsecond"'],
    [["bell\x07"], '"bell\\a"'],
    [["\bbackspace"], '"\\bbackspace"'],
    [["\fform feed"], '"\\fform feed"'],
    [["carriage \r return"], '"carriage \\r return"'],
    [["horizontal tab\t"], '"horizontal tab\\t"'],
    [["vertical \v tab"], '"vertical \\v tab"'],
    [["double \\\\ slash"], '"double \\\\\\\\ slash"'],
    [['mid string " quote'], '"mid string \\" quote"'],
    [["printable unicode😀"], '"printable unicode😀"'],
    [["\u{1F431}\u{1F600}\u{1F61B}"], '"🐱😀😛"'],
    [[""], '""'],
    [["lone \ud800"], '"lone \ufffd"'],
  ]);
  table(latest, "string_reverse", [
    [[""], ""],
    [["☺"], "☺"],
    [["Ta©oCαt"], "tαCo©aT"],
    [["a😀b"], "b😀a"],
  ]);
});

describe("strings library versions", () => {
  const names = (library: CelLibrary) => (library.functions ?? []).map((f) => f.name);
  it("version 0 has the base functions only", () => {
    const v0 = names(stringsLibraryAt(0));
    expect(v0).toContain("join");
    expect(v0).not.toContain("format");
    expect(v0).not.toContain("strings.quote");
  });
  it("Kubernetes' version 2 has format and quote but not reverse", () => {
    expect(names(stringsLibrary)).toEqual(expect.arrayContaining(["format", "strings.quote", "join"]));
    expect(names(stringsLibrary)).not.toContain("reverse");
    expect(names(stringsLibraryAt(3))).toContain("reverse");
  });
});

// ---- format

const list = (...items: CelValue[]) => new ArrayList(items);
const timestamp = (iso: string) => new CelTimestamp(BigInt(Date.parse(iso) / 1000), 0);
const seconds = (s: number) => new CelDuration(BigInt(s) * 1_000_000_000n);

// Shared by both generations, which print them differently.
const MIXED_LIST = list("abc", 3.14, null, list(9n, 8n, 7n, 6n), timestamp("2023-02-03T23:31:20Z"));
const KEYED_MAP = new HashMap([
  ["key1", new TextEncoder().encode("xyz")],
  ["key5", null],
  ["key2", seconds(7200)],
  ["key4", true],
  ["key3", 2.5],
]);
const KEY_KINDS_MAP = new HashMap([
  [1n, "value1"],
  [new CelUint(2n), "value2"],
  [true, Number.NaN],
]);

function formatCases(library: CelLibrary, cases: readonly (readonly [string, CelValue[], unknown])[]): void {
  for (const [format, args, expected] of cases) {
    it(`${show(format)} ${show(args)} → ${show(expected)}`, () => {
      expect(plain(call(library, "string_format", format, new ArrayList(args)))).toEqual(expected);
    });
  }
}

describe("format, version 4 on (formatting_v2, the conformance behaviour)", () => {
  formatCases(latest, [
    ["no substitution", [], "no substitution"],
    ["str is %s and some more", ["filler"], "str is filler and some more"],
    ["%% and also %%", [], "% and also %"],
    ["%%%s%%", ["text"], "%text%"],
    [
      "%d %d %d, %s %s %s, %d %d %d, %s %s %s",
      [1n, 2n, 3n, "A", "B", "C", 4n, 5n, 6n, "D", "E", "F"],
      "1 2 3, A B C, 4 5 6, D E F",
    ],
    ["%.3f", [1.2345], "1.234"],
    ["this is 5 in binary: %b", [5n], "this is 5 in binary: 101"],
    ["unsigned 64 in binary: %b", [new CelUint(64n)], "unsigned 64 in binary: 1000000"],
    ["bit set from bool: %b", [true], "bit set from bool: 1"],
    ["%o", [11n], "13"],
    ["this is an unsigned octal: %o", [new CelUint(65535n)], "this is an unsigned octal: 177777"],
    ["%x is 20 in hexadecimal", [30n], "1e is 20 in hexadecimal"],
    ["%X is 20 in hexadecimal", [30n], "1E is 20 in hexadecimal"],
    ["%X is 6000 in hexadecimal", [new CelUint(6000n)], "1770 is 6000 in hexadecimal"],
    ["%x", ["Hello world!"], "48656c6c6f20776f726c6421"],
    ["%X", ["Hello world!"], "48656C6C6F20776F726C6421"],
    ["%x", [new TextEncoder().encode("byte string")], "6279746520737472696e67"],
    ["%x", [-30n], "-1e"],
    ["%.6e", [1052.032911275], "1.052033e+03"],
    ["%f", [2.5], "2.500000"],
    ["%f", [2n], "2.000000"],
    ["%f", [new CelUint(3n)], "3.000000"],
    ["%e", [2.5], "2.500000e+00"],
    ["%e", [2n], "2.000000e+00"],
    ["%e", [0], "0.000000e+00"],
    ["%e", [1e-300], "1.000000e-300"],
    ["%.0e", [25], "2e+01"],
    ["%.3e", [9.9996], "1.000e+01"],
    ["%e", [Number.NaN], "NaN"],
    ["%e", [Number.POSITIVE_INFINITY], "Infinity"],
    ["%d", [Number.NEGATIVE_INFINITY], "-Infinity"],
    ["%d", [2.5], "2.5"],
    ["%f", [Number.NaN], "NaN"],
    ["%d", [new CelUint(64n)], "64"],
    ["%s", [null], "null"],
    ["%s", [999999999999n], "999999999999"],
    ["%s", [new TextEncoder().encode("xyz")], "xyz"],
    ["%s", [new CelTypeValue(StringType)], "string"],
    ["%s", [timestamp("2023-02-03T23:31:20Z")], "2023-02-03T23:31:20Z"],
    ["%s", [seconds(6347)], "6347s"],
    ["%s", [1e21], "1000000000000000000000"],
    ["%s", [MIXED_LIST], "[abc, 3.14, null, [9, 8, 7, 6], 2023-02-03T23:31:20Z]"],
    ["%s", [KEYED_MAP], "{key1: xyz, key2: 7200s, key3: 2.5, key4: true, key5: null}"],
    ["%s", [KEY_KINDS_MAP], "{1: value1, 2: value2, true: NaN}"],
    ["%s", [list(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY)], "[NaN, Infinity, -Infinity]"],
    ["%.0f", [123.0], "123"],
    ["%.0f", [3.5001], "4"],
    ["%.0f", [3.4999], "3"],
    ["%.0f", [1.5], "2"],
    ["%.0f", [2.5], "2"],
    ["%.0f", [0.5], "0"],
    ["%.3f", [123.4999], "123.500"],
    ["%.3f", [123.4994], "123.499"],
    ["%.3f", [-123.4999], "-123.500"],
    ["%.3f", [-123.4994], "-123.499"],
    ["%.5f", [-1.2], "-1.20000"],
    ["%.2f", [1.005], "1.00"],
    ["%f", [5e-324], "0.000000"],
    ["%f", [-0.0000001], "-0.000000"],
    ["%.1f", [1e22], "10000000000000000000000.0"],
  ]);
});

describe("format errors", () => {
  formatCases(latest, [
    ["%a", [1n], err('could not parse formatting clause: unrecognized formatting clause "a"')],
    ["double is %E", [0.5], err('could not parse formatting clause: unrecognized formatting clause "E"')],
    ["%é", [1n], err('could not parse formatting clause: unrecognized formatting clause "Ã"')],
    ["%d %d %d", [0n, 1n], err("index 2 out of range")],
    ["%", [], err("index 0 out of range")],
    ["%", [1n], err("unexpected end of string")],
    [
      "%.3",
      [1.0],
      err(
        "could not parse formatting clause: error while parsing precision: could not find end of precision specifier",
      ),
    ],
    [
      "%.f",
      [1.0],
      err(
        'could not parse formatting clause: error while parsing precision: error while converting precision to integer: strconv.Atoi: parsing "": invalid syntax',
      ),
    ],
    [
      "string is %b",
      ["abc"],
      err("error during formatting: only ints, uints, and bools can be formatted as binary, was given string"),
    ],
    [
      "%d",
      [seconds(1802)],
      err(
        "error during formatting: decimal clause can only be used on ints, uints, and doubles, was given google.protobuf.Duration",
      ),
    ],
    [
      "%s",
      [list(1n, new HashMap([[1n, new CelOptional(1n)]]))],
      err(
        "error during formatting: string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given optional_type",
      ),
    ],
    [
      "null: %o",
      [null],
      err("error during formatting: octal clause can only be used on ints and uints, was given null_type"),
    ],
  ]);
});

describe("format, versions 1 to 3 (formatting.go, as Kubernetes enables it)", () => {
  formatCases(stringsLibrary, [
    ["%d", [42n], "42"],
    ["%f", [3.14], "3.140000"],
    ["%.3f", [1.2345], "1.234"],
    ["%f", [1234567.891], "1,234,567.891000"],
    ["%.0f", [-1000], "-1,000"],
    ["%e", [2.5], "2.500000\u202f×\u202f10⁰⁰"],
    ["%.6e", [1052.032911275], "1.052033\u202f×\u202f10⁰³"],
    ["%e", [0.00025], "2.500000\u202f×\u202f10⁻⁰⁴"],
    ["%f", ["NaN"], "NaN"],
    ["%f", ["Infinity"], "∞"],
    ["%f", ["-Infinity"], "-∞"],
    ["%f", [Number.POSITIVE_INFINITY], "∞"],
    ["%s", [64.2], "64.2"],
    ["%s", [1e21], "1e+21"],
    ["%s", [true], "true"],
    ["%s", [seconds(6347)], "6347s"],
    ["%s", [MIXED_LIST], '["abc", 3.140000, null, [9, 8, 7, 6], timestamp("2023-02-03T23:31:20Z")]'],
    ["%s", [KEYED_MAP], '{"key1":b"xyz", "key2":duration("7200s"), "key3":2.500000, "key4":true, "key5":null}'],
    ["%s", [KEY_KINDS_MAP], '{1:"value1", 2:"value2", true:"NaN"}'],
    [
      "%s",
      [
        new HashMap([
          ["strKey", "x"],
          [true, 42n],
          [6n, seconds(422)],
        ]),
      ],
      '{"strKey":"x", 6:duration("422s"), true:42}',
    ],
    ["%s", [list(6n, 4.2, "a string")], '[6, 4.200000, "a string"]'],
    ["%d", [2.5], err("error during formatting: decimal clause can only be used on integers, was given double")],
    ["%f", ["abc"], err("error during formatting: fixed-point clause can only be used on doubles, was given string")],
    [
      "string is %b",
      ["abc"],
      err("error during formatting: only integers and bools can be formatted as binary, was given string"),
    ],
    [
      "%x",
      [0.5],
      err(
        "error during formatting: only integers, byte buffers, and strings can be formatted as hex, was given double",
      ),
    ],
  ]);
});

// ---- compile-time format check

/** A checked `"<format>".format([<args>])` with the given argument types. */
function formatCall(format: string, argTypes: readonly CelType[]): CheckedAst {
  const elements: Expr[] = argTypes.map((_, i) => ({ kind: "ident", id: 10 + i, name: `a${i}` }));
  const expr: Expr = {
    kind: "call",
    id: 2,
    target: { kind: "const", id: 1, value: format },
    function: "format",
    args: [{ kind: "list", id: 3, elements, optionalIndices: [] }],
  };
  const types = new Map(argTypes.map((t, i) => [10 + i, t]));
  return {
    expr,
    sourceInfo: {
      source: "",
      positions: new Map([
        [2, 7],
        [10, 15],
      ]),
      macroCalls: new Map(),
    },
    types,
    references: new Map([[2, { overloadIds: ["string_format"] }]]),
  };
}

describe("format check at compile time", () => {
  it("accepts matching clauses and dyn arguments", () => {
    expect(stringFormatIssues(formatCall("%d and %s", [IntType, DynType]), 2)).toEqual([]);
  });
  it("reports a clause that does not fit its argument at the argument", () => {
    expect(stringFormatIssues(formatCall("%d", [StringType]), 2)).toEqual([
      {
        message: "error during formatting: decimal clause can only be used on integers, was given string",
        offset: 15,
        exprId: 10,
      },
    ]);
  });
  it("words the mismatch as the library version does", () => {
    expect(stringFormatIssues(formatCall("%o", [listType(IntType)]), LATEST_STRINGS_VERSION)[0]?.message).toBe(
      "error during formatting: octal clause can only be used on ints and uints, was given list",
    );
  });
  it("reports unused arguments", () => {
    expect(stringFormatIssues(formatCall("%s", [IntType, IntType]), 2)).toEqual([
      { message: "too many arguments supplied to string.format (expected 1, got 2)", offset: 7, exprId: 2 },
    ]);
  });
  it("reports a bad clause and a missing argument at the call", () => {
    expect(stringFormatIssues(formatCall("%a", [IntType]), 2)[0]?.message).toBe(
      'could not parse formatting clause: unrecognized formatting clause "a"',
    );
    expect(stringFormatIssues(formatCall("%s %s", [IntType]), 2)[0]?.message).toBe("index 1 out of range");
  });
  it("rejects an object for %s", () => {
    expect(stringFormatIssues(formatCall("%s", [objectType("example.Thing")]), 2)[0]?.message).toBe(
      "error during formatting: string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given example.Thing",
    );
  });
});

// ---- cost

describe("strings costs (Kubernetes' estimator)", () => {
  const cost = (id: string) => overload(stringsLibrary, id).cost as (OverloadCost & ContextualCost) | undefined;
  it("charges a pass over the receiver for lowerAscii, substring and trim", () => {
    expect(cost("string_lower_ascii")?.estimate?.([{ min: 0, max: 100 }])).toEqual({ min: 0, max: 10 });
    expect(cost("string_trim")?.resultSize?.([{ min: 3, max: 100 }])).toEqual({ min: 3, max: 100 });
    expect(cost("string_substring_int")?.actual?.(["tacocat", 4n], "cat")).toBe(1);
  });
  it("charges indexOf by the UTF-8 length, rounded down", () => {
    expect(cost("string_index_of_string")?.actual?.(["tacocat", "a"], 1n)).toBe(0);
    expect(cost("string_index_of_string")?.actual?.(["©".repeat(10), "a"], -1n)).toBe(2);
  });
  it("charges replace and split two passes", () => {
    expect(cost("string_replace_string_string")?.actual?.(["tacocat", "a", "b"], "tbcocbt")).toBe(2);
    expect(
      cost("string_split_string")?.estimate?.([
        { min: 0, max: 10 },
        { min: 1, max: 1 },
      ]),
    ).toEqual({ min: 0, max: 2 });
  });
  it("bounds replace's result", () => {
    const size = cost("string_replace_string_string")?.resultSize?.([
      { min: 10, max: 10 },
      { min: 1, max: 1 },
      { min: 2, max: 2 },
    ]);
    expect(size).toEqual({ min: 10, max: 20 });
  });
  it("bounds split's result by a literal limit", () => {
    const context = { argTypes: [], elementSize: () => undefined, literal: (i: number) => (i === 2 ? 3n : undefined) };
    expect(cost("string_split_string_int")?.resultSize?.([{ min: 0, max: 50 }], context)).toEqual({
      min: 0,
      max: 3,
    });
  });
  it("charges join by its result", () => {
    expect(cost("list_join_string")?.actual?.([new ArrayList(["ab", "cd"]), "-"], "ab-cd")).toBe(1);
    const context = { argTypes: [], elementSize: () => ({ min: 0, max: 10 }), literal: () => undefined };
    expect(
      cost("list_join_string")?.estimate?.(
        [
          { min: 0, max: 3 },
          { min: 1, max: 1 },
        ],
        undefined,
        context,
      ),
    ).toEqual({
      min: 0,
      max: 4,
    });
  });
  it("charges format and quote a pass over their string", () => {
    expect(cost("string_format")?.actual?.(["%s and %s", list("a", "b")], "a and b")).toBe(1);
    expect(cost("strings_quote")?.estimate?.([{ min: 0, max: 30 }])).toEqual({ min: 0, max: 3 });
  });
  it("reports huge indexes exactly", () => {
    expect(plain(call(stringsLibrary, "string_char_at_int", "abc", INT64_MAX))).toEqual(
      err(`index out of range: ${INT64_MAX}`),
    );
  });
});

describe("strings end to end (Kubernetes' version 2)", () => {
  const evaluate = evaluator(stringsLibrary);
  const holds = [
    "'tacocat'.charAt(3) == 'o'",
    "'ta©o©αT'.indexOf('©', 3) == 4 && 'ta©o©αT'.lastIndexOf('©') == 4",
    "'TacoCÆt'.lowerAscii() == 'tacocÆt' && 'tacoCαt'.upperAscii() == 'TACOCαT'",
    "'{0} days {0} hours'.replace('{0}', '2', 1).replace('{0}', '23') == '2 days 23 hours'",
    "'hello world events!'.split(' ', 2) == ['hello', 'world events!']",
    "'ta©o©αT'.substring(2, 6) == '©o©α'",
    "'  \\ttrim\\n  '.trim() == 'trim'",
    "['x', 'y'].join('-') == 'x-y' && [].join() == ''",
    'strings.quote("first\\nsecond") == "\\"first\\\\nsecond\\""',
    '"%d items, %s".format([3, "ok"]) == "3 items, ok"',
    '"%.2f".format([1234.5]) == "1,234.50"',
  ];
  itHolds(evaluate, holds);
  it("reports a run-time error with cel-go's text", () => {
    expect(evaluate("'tacocat'.substring(4, 3)")).toMatchObject({
      value: new CelError("invalid substring range. start: 4, end: 3"),
    });
  });
  it("does not declare reverse before version 3", () => {
    expect(evaluate("'abc'.reverse()")).toContain("undeclared reference to 'reverse'");
  });
});
