import { describe, expect, it } from "vitest";
import { CelError, type CelValue } from "../../../../../runtime/cel/common/values.js";
import { type QuantityValue, quantityLibrary } from "../../../../../runtime/cel/library/kubernetes/quantity-library.js";
import { quantityFormatError } from "../../../../../runtime/cel/library/kubernetes/resource-quantity.js";
import { call, overload } from "./call-overload.js";

const q = (s: string) => call(quantityLibrary, "string_to_quantity", s);
const op = (id: string, ...args: CelValue[]) => call(quantityLibrary, id, ...args);
const equal = (a: CelValue, b: CelValue) => (a as QuantityValue).equals(b);

function errorOf(v: CelValue): string {
  if (!(v instanceof CelError)) throw new Error(`expected an error, got ${String(v)}`);
  return v.message;
}

describe("quantity library (kubernetes.quantity)", () => {
  it.each([
    ["10Mo", quantityFormatError],
    ["10Mm", "unable to parse quantity's suffix"],
    ["200K", "unable to parse quantity's suffix"],
    ["Three", quantityFormatError],
    ["1,3G", quantityFormatError],
    ["", quantityFormatError],
    [" 1", quantityFormatError],
    ["1 ", quantityFormatError],
    ["1e", "unable to parse quantity's suffix"],
    [".Ei", "unable to parse numeric part of quantity"],
  ])("quantity(%j) fails: %s", (input, message) => {
    expect(errorOf(q(input))).toBe(message);
    expect(op("is_quantity_string", input)).toBe(false);
  });

  it("parses a bare suffix as zero, as ParseQuantity's scanner does (Kubernetes' docs say otherwise)", () => {
    expect(equal(q("Mi"), q("0"))).toBe(true);
    expect(equal(q("k"), q("0"))).toBe(true);
  });

  it.each(["20", "20M", "20Mi", "1.3G", "1.3Gi", "10000k", "+5", "-5m", "1e3", "1E-3", "1.G", ".5", "+", "0", "00"])(
    "isQuantity(%j)",
    (input) => {
      expect(op("is_quantity_string", input)).toBe(true);
    },
  );

  it("compares by value (Kubernetes' equality, ordering and compareTo cases)", () => {
    expect(equal(q("200M"), q("200M"))).toBe(true);
    expect(equal(q("200M"), q("0.2G")) && equal(q("0.2G"), q("200M"))).toBe(true);
    expect(equal(q("2M"), q("0.002G")) && equal(q("2000k"), q("2M")) && equal(q("0.002G"), q("2000k"))).toBe(true);
    expect(equal(q("200M"), q("0.3G"))).toBe(false);
    expect(op("quantity_is_less_than", q("50M"), q("50Mi"))).toBe(true);
    expect(op("quantity_is_less_than", q("50M"), q("100M"))).toBe(true);
    expect(op("quantity_is_less_than", q("100M"), q("50M"))).toBe(false);
    expect(op("quantity_is_greater_than", q("50Mi"), q("50M"))).toBe(true);
    expect(op("quantity_is_greater_than", q("150Mi"), q("100Mi"))).toBe(true);
    expect(op("quantity_is_greater_than", q("50M"), q("100M"))).toBe(false);
    expect(op("quantity_compare_to", q("200M"), q("0.2G"))).toBe(0n);
    expect(op("quantity_compare_to", q("50M"), q("50Mi"))).toBe(-1n);
    expect(op("quantity_compare_to", q("50Mi"), q("50M"))).toBe(1n);
    expect(op("quantity_compare_to", q("-1"), q("1n"))).toBe(-1n);
    expect(op("quantity_compare_to", q("1e1000000000"), q("9999999999999999999999999999"))).toBe(1n);
    expect(op("quantity_compare_to", q("1e-1000000000"), q("1n"))).toBe(0n);
  });

  it("adds and subtracts quantities and ints exactly", () => {
    expect(equal(op("quantity_add", q("50k"), q("20")), q("50.02k"))).toBe(true);
    expect(op("quantity_is_less_than", op("quantity_add_int", q("50k"), 20n), q("50020"))).toBe(false);
    expect(equal(op("quantity_sub", q("50k"), q("20")), q("49.98k"))).toBe(true);
    expect(equal(op("quantity_sub_int", q("50k"), 20n), q("49980"))).toBe(true);
    const chain = op("quantity_sub", op("quantity_add_int", q("50k"), 20n), q("100k"));
    expect(op("quantity_get_int", chain)).toBe(-49980n);
    expect(op("quantity_get_int", op("quantity_sub_int", chain, -50000n))).toBe(20n);
    expect(equal(op("quantity_add", q("9223372036854775807"), q("1")), q("9223372036854775808"))).toBe(true);
    expect(equal(op("quantity_add", q("1Ki"), q("0.5")), q("1024.5"))).toBe(true);
  });

  it("answers asInteger and isInteger as Go's AsInt64 does, by representation", () => {
    expect(op("quantity_get_int", q("50k"))).toBe(50000n);
    expect(op("quantity_is_integer", q("50"))).toBe(true);
    expect(op("quantity_is_integer", q("50000000G"))).toBe(true);
    expect(op("quantity_is_integer", q("12Mi"))).toBe(true);
    expect(errorOf(op("quantity_get_int", q("9999999999999999999999999999999999999G")))).toBe(
      "cannot convert value to integer",
    );
    expect(op("quantity_is_integer", q("9999999999999999999999999999999999999G"))).toBe(false);
    // A negative scale, or the arbitrary-precision form, is never an int64 in Go, whatever the value.
    expect(op("quantity_is_integer", q("1.0"))).toBe(false);
    expect(op("quantity_is_integer", q("1000m"))).toBe(false);
    expect(op("quantity_is_integer", q("1.5Ki"))).toBe(false);
    expect(op("quantity_is_integer", op("quantity_sub", q("0"), q("1")))).toBe(true);
    expect(op("quantity_is_integer", op("quantity_sub", q("0"), q("1.5Ki")))).toBe(false);
    expect(op("quantity_is_integer", op("quantity_sub", q("2"), q("1")))).toBe(true);
    expect(op("quantity_is_integer", q("100E"))).toBe(false);
  });

  it("converts to a float as Go does (float of the digits × 10^scale)", () => {
    expect(op("quantity_get_float", q("50.703k"))).toBe(50703);
    expect(op("quantity_get_float", op("quantity_sub_int", q("50k"), 20000n))).toBe(30000);
    expect(op("quantity_get_float", q("1.5Ki"))).toBe(1536000000000 * 1e-9);
    expect(op("quantity_get_float", q("1e400"))).toBe(Number.POSITIVE_INFINITY);
    expect(op("quantity_get_float", q("-1m"))).toBe(-0.001);
  });

  it("rounds tiny values up to a nano and caps binary quantities at 2^63-1, as ParseQuantity does", () => {
    expect(equal(q("0.1n"), q("1n"))).toBe(true);
    expect(equal(q("-0.1n"), q("-1n"))).toBe(true);
    expect(equal(q("100Ei"), q("9223372036854775807"))).toBe(true);
    expect(equal(q("100E"), q("100000000000000000000"))).toBe(true);
  });

  it("gives the sign as a global function", () => {
    const sign = overload(quantityLibrary, "quantity_sign");
    expect(sign.member).toBe(false);
    expect(op("quantity_sign", q("-5"))).toBe(-1n);
    expect(op("quantity_sign", q("0"))).toBe(0n);
    expect(op("quantity_sign", q("1n"))).toBe(1n);
  });

  it("refuses an addition it would have to expand without bound", () => {
    expect(errorOf(op("quantity_add", q("1e1000000000"), q("1")))).toBe("quantity is too large to compute exactly");
  });

  it("charges quantity() and isQuantity() by string length, estimated and at run time", () => {
    for (const id of ["string_to_quantity", "is_quantity_string"]) {
      const cost = overload(quantityLibrary, id).cost;
      expect(cost?.estimate?.([{ min: 14, max: 14 }])).toEqual({ min: 2, max: 2 });
      expect(cost?.actual?.(["123456789012Mi"], null)).toBe(2);
    }
  });
});
