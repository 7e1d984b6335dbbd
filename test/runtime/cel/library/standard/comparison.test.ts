import { describe, expect, it } from "vitest";
import {
  ArrayList,
  CelDuration,
  CelError,
  CelTimestamp,
  CelUint,
  type CelValue,
  HashMap,
} from "../../../../../runtime/cel/common/values.js";
import { call } from "./overloads.js";

const u = (n: bigint) => new CelUint(n);
const b = (...x: number[]) => new Uint8Array(x);

describe("ordering", () => {
  it.each<[string, CelValue, CelValue, boolean]>([
    ["less_bool", false, true, true],
    ["less_equals_bool", true, true, true],
    ["greater_bool", false, true, false],
    ["less_int64", -1n, 0n, true],
    ["less_int64_double", 1n, 1.5, true],
    // Against a double an integer rounds to double, as in cel-go: 2^63-1 and 2^63 are equal.
    ["less_int64_double", 9223372036854775807n, 2 ** 63, false],
    ["less_equals_int64_double", 9223372036854775807n, 2 ** 63, true],
    ["less_int64_double", 9223372036854775807n, 2 ** 63 + 2048, true],
    ["greater_double_int64", -(2 ** 63) - 2048, -9223372036854775808n, false],
    ["greater_int64_double", -9223372036854775808n, -(2 ** 63), false],
    ["less_equals_int64_uint64", -1n, u(0n), true],
    ["greater_uint64_int64", u(18446744073709551615n), 9223372036854775807n, true],
    ["less_uint64", u(1n), u(2n), true],
    ["less_uint64_double", u(18446744073709551615n), 2 ** 64, false],
    ["greater_double_uint64", 2 ** 64 + 4096, u(18446744073709551615n), true],
    ["less_double_uint64", -0.5, u(0n), true],
    ["greater_equals_double_uint64", 1.0, u(1n), true],
    ["greater_double_int64", 2.5, 2n, true],
    ["less_double", -0, 0, false],
    ["less_equals_double", -0, 0, true],
    ["less_string", "a", "b", true],
    ["less_string", "a", "aa", true],
    ["less_string", "\uffff", "😀", true],
    ["greater_string", "😀", "\ue000", true],
    ["less_equals_string", "", "", true],
    ["less_bytes", b(0x61), b(0x61, 0x00), true],
    ["greater_bytes", b(0xff), b(0x00, 0xff), true],
    ["less_timestamp", new CelTimestamp(1n, 5), new CelTimestamp(1n, 6), true],
    ["greater_equals_timestamp", new CelTimestamp(2n, 0), new CelTimestamp(1n, 999999999), true],
    ["less_duration", new CelDuration(-1n), new CelDuration(0n), true],
    ["greater_equals_duration", new CelDuration(-1n), new CelDuration(0n), false],
  ])("%s(%s, %s)", (id, a, c, result) => {
    expect(call(id, a, c)).toBe(result);
  });

  it("cannot order NaN", () => {
    for (const [id, a, c] of [
      ["less_double", Number.NaN, 1],
      ["greater_equals_int64_double", 1n, Number.NaN],
      ["less_equals_double_uint64", Number.NaN, u(1n)],
    ] as [string, CelValue, CelValue][]) {
      const r = call(id, a, c);
      expect(r).toBeInstanceOf(CelError);
      expect((r as CelError).message).toBe("NaN values cannot be ordered");
    }
  });

  it("answers no such overload for operands of other types", () => {
    expect((call("less_int64", 1n, "a") as CelError).message).toBe("no such overload");
  });
});

describe("equality", () => {
  it.each<[CelValue, CelValue, boolean]>([
    [1n, 1, true],
    [1n, u(1n), true],
    [u(1n), 1.0, true],
    [Number.NaN, Number.NaN, false],
    [1n, Number.NaN, false],
    ["a", "a", true],
    [1n, "1", false],
    [null, null, true],
    [new ArrayList([1n, 2n]), new ArrayList([1, u(2n)]), true],
    [new HashMap([[1n, "a"]]), new HashMap([[1n, "a"]]), true],
    [b(1), b(1), true],
  ])("%s == %s", (a, c, equal) => {
    expect(call("equals", a, c)).toBe(equal);
    expect(call("not_equals", a, c)).toBe(!equal);
  });
});
