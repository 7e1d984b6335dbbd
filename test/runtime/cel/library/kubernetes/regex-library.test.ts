// Table tests for Kubernetes' regex library (runtime/cel/library/kubernetes/regex.ts): find and
// findAll with Go's regexp semantics (leftmost-first, empty matches next to a match skipped) and
// Kubernetes' cost, which is the cost of `matches`.
import { describe, expect, it } from "vitest";
import { CelError, CelList, type CelValue } from "../../../../../runtime/cel/common/values.js";
import { regexLibrary } from "../../../../../runtime/cel/library/kubernetes/regex-library.js";
import { evaluator } from "../evaluate.js";
import { call, overload } from "./call-overload.js";

function plain(v: CelValue): unknown {
  if (v instanceof CelError) return { error: v.message };
  return v instanceof CelList ? v.toArray() : v;
}

const cases: readonly (readonly [string, CelValue[], unknown])[] = [
  ["string_find_string", ["abc 123", "[0-9]+"], "123"],
  ["string_find_string", ["abc 123", "[0-9]*"], ""],
  ["string_find_string", ["abc 123", "xyz"], ""],
  ["string_find_string", ["héllo wörld", "w.r"], "wör"],
  ["string_find_all_string", ["123 abc 456", "[0-9]+"], ["123", "456"]],
  ["string_find_all_string", ["123 abc 456", "[0-9]*"], ["123", "", "", "", "", "456"]],
  ["string_find_all_string", ["123 abc 456", "xyz"], []],
  ["string_find_all_string", ["é😀é", "."], ["é", "😀", "é"]],
  ["string_find_all_string_int", ["123 abc 456", "[0-9]+", 1n], ["123"]],
  ["string_find_all_string_int", ["123 abc 456", "[0-9]+", 0n], []],
  ["string_find_all_string_int", ["123 abc 456", "[0-9]+", -1n], ["123", "456"]],
  ["string_find_all_string_int", ["aaa", "a", 99n], ["a", "a", "a"]],
  ["string_find_string", ["abc", "(abc"], { error: "Illegal regex: error parsing regexp: missing closing ): `(abc`" }],
  [
    "string_find_all_string",
    ["abc", "a**"],
    { error: "Illegal regex: error parsing regexp: invalid nested repetition operator: `**`" },
  ],
];

describe("find and findAll", () => {
  for (const [id, args, expected] of cases) {
    it(`${id} ${args.map(String).join(", ")}`, () => {
      expect(plain(call(regexLibrary, id, ...args))).toEqual(expected);
    });
  }
});

describe("regex costs", () => {
  const cost = overload(regexLibrary, "string_find_all_string").cost;
  it("estimates (1 + length) × 0.1 times regex length × 0.25, and a result of at most one match per character", () => {
    expect(
      cost?.estimate?.([
        { min: 0, max: 10 },
        { min: 6, max: 6 },
      ]),
    ).toEqual({ min: 2, max: 4 });
    expect(
      cost?.resultSize?.([
        { min: 0, max: 10 },
        { min: 6, max: 6 },
      ]),
    ).toEqual({ min: 0, max: 10 });
  });
  it("charges the same at run time", () => {
    expect(cost?.actual?.(["abc 123", "[0-9]+"], "123")).toBe(2);
  });
});

describe("regex end to end", () => {
  const evaluate = evaluator(regexLibrary);
  it("finds matches", () => {
    expect(
      evaluate("'abc 123'.find('[0-9]+') == '123' && '123 abc 456'.findAll('[0-9]+', 1) == ['123']"),
    ).toMatchObject({
      value: true,
    });
  });
  it("reports a bad pattern", () => {
    expect(evaluate("'abc'.find(dyn('(abc'))")).toMatchObject({
      value: new CelError("Illegal regex: error parsing regexp: missing closing ): `(abc`"),
    });
  });
});
