import { describe, expect, it } from "vitest";
import { ArrayList, CelUint, type CelValue } from "../../../../../runtime/cel/common/values.js";
import { call, message } from "./overloads.js";

const u = (n: bigint) => new CelUint(n);
const MIN = -(2n ** 63n);
const MAX = 2n ** 63n - 1n;

describe("int64 and uint64 arithmetic", () => {
  it.each<[string, CelValue, CelValue, CelValue]>([
    ["add_int64", 40n, 2n, 42n],
    ["subtract_int64", -42n, -12n, -30n],
    ["multiply_int64", -30n, -2n, 60n],
    ["divide_int64", -20n, 2n, -10n],
    ["divide_int64", 7n, -2n, -3n],
    ["modulo_int64", 43n, -5n, 3n],
    ["modulo_int64", -42n, -5n, -2n],
    ["modulo_int64", -3n, 5n, -3n],
    ["add_uint64", u(42n), u(2n), u(44n)],
    ["subtract_uint64", u(42n), u(12n), u(30n)],
    ["multiply_uint64", u(40n), u(2n), u(80n)],
    ["divide_uint64", u(60n), u(2n), u(30n)],
    ["modulo_uint64", u(42n), u(5n), u(2n)],
  ])("%s(%s, %s)", (id, a, b, result) => {
    expect(call(id, a, b)).toEqual(result);
  });

  it.each<[string, CelValue, CelValue, string]>([
    ["add_int64", MAX, 1n, "integer overflow"],
    ["subtract_int64", MIN, 1n, "integer overflow"],
    ["add_int64", MIN, -1n, "integer overflow"],
    ["subtract_int64", 1n, -MAX, "integer overflow"],
    ["multiply_int64", MIN, -1n, "integer overflow"],
    ["divide_int64", MIN, -1n, "integer overflow"],
    ["modulo_int64", MIN, -1n, "integer overflow"],
    ["multiply_int64", 5000000000n, 5000000000n, "integer overflow"],
    ["multiply_int64", -5000000000n, 5000000000n, "integer overflow"],
    ["add_uint64", u(2n ** 64n - 1n), u(1n), "unsigned integer overflow"],
    ["subtract_uint64", u(0n), u(1n), "unsigned integer overflow"],
    ["multiply_uint64", u(5000000000n), u(5000000000n), "unsigned integer overflow"],
    ["divide_int64", 15n, 0n, "division by zero"],
    ["divide_uint64", u(15n), u(0n), "division by zero"],
    ["modulo_int64", 34n, 0n, "modulus by zero"],
    ["modulo_uint64", u(34n), u(0n), "modulus by zero"],
    ["add_int64", 1n, 1.5, "no such overload"],
  ])("%s(%s, %s) fails", (id, a, b, text) => {
    expect(message(call(id, a, b))).toBe(text);
  });

  it("negates", () => {
    expect(call("negate_int64", 42n)).toBe(-42n);
    expect(call("negate_int64", 0n)).toBe(0n);
    expect(message(call("negate_int64", MIN))).toBe("integer overflow");
    expect(call("negate_double", 4.5)).toBe(-4.5);
    expect(message(call("negate_double", false))).toBe("no such overload");
  });
});

describe("double arithmetic follows IEEE 754", () => {
  it.each<[string, number, number, number]>([
    ["add_double", 4.25, 15.25, 19.5],
    ["subtract_double", 42.875, -22, 64.875],
    ["multiply_double", 40.75, -2.25, -91.6875],
    ["divide_double", -8.875, -0.0625, 142],
    ["divide_double", 15.75, 0, Number.POSITIVE_INFINITY],
    ["multiply_double", 2, 8.988466e307, Number.POSITIVE_INFINITY],
    ["divide_double", 5e-324, 2, 0],
  ])("%s(%s, %s)", (id, a, b, result) => {
    expect(call(id, a, b)).toBe(result);
  });
});

describe("concatenation", () => {
  it("joins strings, bytes and lists", () => {
    expect(call("add_string", "¢", "ÿ")).toBe("¢ÿ");
    expect(call("add_bytes", new Uint8Array([0x61]), new Uint8Array([0xff]))).toEqual(new Uint8Array([0x61, 0xff]));
    expect((call("add_list", new ArrayList([0n, 1n]), new ArrayList([2n])) as ArrayList).items).toEqual([0n, 1n, 2n]);
    expect((call("add_list", new ArrayList([]), new ArrayList([])) as ArrayList).items).toEqual([]);
  });
});
