import { describe, expect, it } from "vitest";
import { CelError, type CelValue } from "../../../../../runtime/cel/common/values.js";
import { compileRegex } from "../../../../../runtime/cel/library/standard/regex.js";
import { codePointLength, compareStrings } from "../../../../../runtime/cel/library/standard/text.js";
import { call } from "./overloads.js";

describe("string functions", () => {
  it.each<[string, string, string, boolean]>([
    ["starts_with_string", "foobar", "foo", true],
    ["starts_with_string", "", "foo", false],
    ["starts_with_string", "foobar", "", true],
    ["starts_with_string", "🐱😀😛", "🐱", true],
    ["ends_with_string", "forté", "té", true],
    ["ends_with_string", "foobar", "foo", false],
    ["contains_string", "abababc", "ababc", true],
    ["contains_string", "hello", "ol", false],
    ["contains_string", "", "", true],
    ["contains_string", "Straße", "aß", true],
    ["matches_string", "hubba", "ubb", true],
    ["matches_string", "", "foo|bar", false],
    ["matches_string", "cows", "", true],
    ["matches_string", "banana", "ba(na)*", true],
    ["matches_string", "mañana", "a+ñ+a+", true],
    ["matches_string", "🐱😀😀", "(a|😀){2}", true],
    ["matches_string", "abc", "^[a-z]+$", true],
    ["matches_string", "ab1", "^[a-z]+$", false],
    ["matches", "grey", "gr(a|e)y", true],
  ])("%s(%j, %j)", (id, s, t, result) => {
    expect(call(id, s, t)).toBe(result);
  });

  it("reports a bad pattern as Go's regexp does", () => {
    const r = call("matches_string", "x", "(abc") as CelValue;
    expect(r).toBeInstanceOf(CelError);
    expect((r as CelError).message).toBe("error parsing regexp: missing closing ): `(abc`");
  });

  it("caches compiled patterns", () => {
    expect(compileRegex("a+b")).toBe(compileRegex("a+b"));
  });
});

describe("text helpers", () => {
  it("counts code points", () => {
    expect(codePointLength("")).toBe(0);
    expect(codePointLength("ÿ")).toBe(1);
    expect(codePointLength("🐱a😀")).toBe(3);
  });

  it("orders by code point", () => {
    expect(compareStrings("\uffff", "\u{10000}")).toBe(-1);
    expect(compareStrings("\u{10000}", "\ud7ff")).toBe(1);
    expect(compareStrings("ab", "ab")).toBe(0);
    expect(compareStrings("b", "ab")).toBe(1);
  });
});
