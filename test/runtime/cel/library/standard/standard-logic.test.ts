import { describe, expect, it } from "vitest";
import { CelError, type CelValue } from "../../../../../runtime/cel/common/values.js";
import { call } from "./overloads.js";

const err = new CelError("boom");

describe("logical operators on evaluated operands", () => {
  it.each<[string, CelValue, CelValue, CelValue]>([
    ["logical_and", true, true, true],
    ["logical_and", true, false, false],
    ["logical_and", err, false, false],
    ["logical_and", false, err, false],
    ["logical_and", "horses", false, false],
    ["logical_and", true, err, err],
    ["logical_or", false, false, false],
    ["logical_or", err, true, true],
    ["logical_or", true, 32n, true],
    ["logical_or", err, false, err],
  ])("%s(%s, %s)", (id, a, b, result) => {
    expect(call(id, a, b)).toBe(result);
  });

  it("answers no such overload for non-bool operands", () => {
    expect((call("logical_and", "a", "b") as CelError).message).toBe("no such overload");
    expect((call("logical_or", false, "b") as CelError).message).toBe("no such overload");
    expect((call("logical_or", "a", false) as CelError).message).toBe("no such overload");
    expect((call("logical_not", 0n) as CelError).message).toBe("no such overload");
  });

  it("selects a branch", () => {
    expect(call("conditional", true, 1n, 2n)).toBe(1n);
    expect(call("conditional", false, "foo", "bar")).toBe("bar");
    expect(call("conditional", err, 1n, 2n)).toBe(err);
    expect((call("conditional", "cows", false, 17n) as CelError).message).toBe("no such overload");
  });

  it("negates and tests not-strictly-false", () => {
    expect(call("logical_not", true)).toBe(false);
    expect(call("not_strictly_false", false)).toBe(false);
    expect(call("not_strictly_false", true)).toBe(true);
    expect(call("not_strictly_false", err)).toBe(true);
  });
});
