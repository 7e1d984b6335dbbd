import { describe, expect, it } from "vitest";
import {
  formatDouble,
  formatFixed,
  parseBool,
  parseFloat64,
  parseInt64,
  parseUint64,
} from "../../../../../runtime/cel/library/standard/number-text.js";

describe("formatDouble (Go %g)", () => {
  it.each([
    [123.456, "123.456"],
    [-4.5e-3, "-0.0045"],
    [100, "100"],
    [123456, "123456"],
    [1e6, "1e+06"],
    [1234567, "1.234567e+06"],
    [1.5e10, "1.5e+10"],
    [-1.23e4, "-12300"],
    [0.0001, "0.0001"],
    [0.00001, "1e-05"],
    [1e100, "1e+100"],
    [5e-324, "5e-324"],
    [1.7976931348623157e308, "1.7976931348623157e+308"],
    [0.1 + 0.2, "0.30000000000000004"],
    [0, "0"],
    [-0, "-0"],
    [Number.NaN, "NaN"],
    [Number.POSITIVE_INFINITY, "+Inf"],
    [Number.NEGATIVE_INFINITY, "-Inf"],
  ])("%s → %s", (x, text) => {
    expect(formatDouble(x)).toBe(text);
  });
});

describe("formatFixed (Go 'f', -1)", () => {
  it.each([
    [1000000, "1000000"],
    [1e-9, "0.000000001"],
    [1e21, "1000000000000000000000"],
    [3723.5, "3723.5"],
    [-1.5, "-1.5"],
    [9223372036.854776, "9223372036.854776"],
    [0, "0"],
  ])("%s → %s", (x, text) => {
    expect(formatFixed(x)).toBe(text);
  });
});

describe("parseFloat64 (strconv.ParseFloat)", () => {
  it.each([
    ["0", 0],
    ["-0.0", -0],
    ["123.456", 123.456],
    ["6.02214e23", 6.02214e23],
    ["-5.43e-21", -5.43e-21],
    ["1.", 1],
    [".5", 0.5],
    ["1_000.5", 1000.5],
    ["inf", Number.POSITIVE_INFINITY],
    ["-Infinity", Number.NEGATIVE_INFINITY],
    ["NaN", Number.NaN],
    ["0x1p-2", 0.25],
    ["0x1.8p1", 3],
    ["1e-400", 0],
  ])("%j → %s", (text, x) => {
    expect(parseFloat64(text)).toBe(x);
  });

  it.each(["", ".", " 1", "1e", "1e400", "+nan", "0x10", "1__0", "_1", "1_", "abc", "1.0.0"])(
    "%j is refused",
    (text) => {
      expect(parseFloat64(text)).toBeUndefined();
    },
  );
});

describe("integers (strconv.ParseInt / ParseUint, base 10)", () => {
  it.each([
    ["987", 987n],
    ["+5", 5n],
    ["-0", 0n],
    ["007", 7n],
    ["-9223372036854775808", -9223372036854775808n],
    ["9223372036854775807", 9223372036854775807n],
  ])("int %j", (text, n) => {
    expect(parseInt64(text)).toBe(n);
  });

  it.each(["", "9223372036854775808", "1_000", "0x10", "1.0", " 1", "--1"])("int %j is refused", (text) => {
    expect(parseInt64(text)).toBeUndefined();
  });

  it("uint takes no sign and stops at 2^64", () => {
    expect(parseUint64("300")).toBe(300n);
    expect(parseUint64("18446744073709551615")).toBe(18446744073709551615n);
    expect(parseUint64("18446744073709551616")).toBeUndefined();
    expect(parseUint64("+1")).toBeUndefined();
    expect(parseUint64("-1")).toBeUndefined();
  });
});

describe("parseBool (strconv.ParseBool)", () => {
  it.each([
    ["1", true],
    ["t", true],
    ["TRUE", true],
    ["True", true],
    ["0", false],
    ["F", false],
    ["false", false],
  ])("%j → %s", (text, b) => {
    expect(parseBool(text)).toBe(b);
  });

  it.each(["TrUe", "yes", "", "FaLsE"])("%j is refused", (text) => {
    expect(parseBool(text)).toBeUndefined();
  });
});
