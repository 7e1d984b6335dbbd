import { describe, expect, it } from "vitest";
import { formatType, typeName } from "../../../../../runtime/cel/common/cel-types.js";
import {
  ArrayList,
  CelDuration,
  CelTimestamp,
  CelTypeValue,
  CelUint,
  type CelValue,
  HashMap,
} from "../../../../../runtime/cel/common/values.js";
import { call, message } from "./overloads.js";

const bytes = (...b: number[]) => new Uint8Array(b);

describe("conversions", () => {
  it.each<[string, CelValue, CelValue]>([
    ["int64_to_int64", 1n, 1n],
    ["uint64_to_int64", new CelUint(42n), 42n],
    ["uint64_to_int64", new CelUint(9223372036854775807n), 9223372036854775807n],
    ["double_to_int64", -123.456, -123n],
    ["double_to_int64", 1.9, 1n],
    ["double_to_int64", -7.9, -7n],
    ["double_to_int64", 2 ** 55, 36028797018963968n],
    ["double_to_int64", -(2 ** 63) + 1024, -9223372036854774784n],
    ["string_to_int64", "987", 987n],
    ["timestamp_to_int64", new CelTimestamp(1095379199n, 5), 1095379199n],
    ["duration_to_int64", new CelDuration(1500n), 1500n],
    ["uint64_to_uint64", new CelUint(1n), new CelUint(1n)],
    ["int64_to_uint64", 1729n, new CelUint(1729n)],
    ["double_to_uint64", 3.25, new CelUint(3n)],
    ["double_to_uint64", 25.5, new CelUint(25n)],
    ["string_to_uint64", "300", new CelUint(300n)],
    ["double_to_double", 5.5, 5.5],
    ["int64_to_double", 9223372036854775807n, 2 ** 63],
    ["int64_to_double", 36028797018963969n, 2 ** 55],
    ["uint64_to_double", new CelUint(18446744073709551615n), 2 ** 64],
    ["string_to_double", "-0.0", -0],
    ["string_to_double", "-84.32e7", -8.432e8],
    ["string_to_string", "hello", "hello"],
    ["bool_to_string", true, "true"],
    ["int64_to_string", -456n, "-456"],
    ["uint64_to_string", new CelUint(9876n), "9876"],
    ["double_to_string", 123.456, "123.456"],
    ["double_to_string", -4.5e-3, "-0.0045"],
    ["bytes_to_string", bytes(0xc3, 0xbf), "ÿ"],
    ["bytes_to_string", bytes(0xef, 0xbb, 0xbf, 0x61), "\ufeffa"],
    ["timestamp_to_string", new CelTimestamp(1234567890n, 0), "2009-02-13T23:31:30Z"],
    ["duration_to_string", new CelDuration(1_000_000_000_000_000n), "1000000s"],
    ["bytes_to_bytes", bytes(1, 2), bytes(1, 2)],
    ["string_to_bytes", "ÿ", bytes(0xc3, 0xbf)],
    ["string_to_bytes", "", bytes()],
    ["bool_to_bool", false, false],
    ["string_to_bool", "True", true],
    ["string_to_bool", "0", false],
    ["timestamp_to_timestamp", new CelTimestamp(5n, 6), new CelTimestamp(5n, 6)],
    ["int64_to_timestamp", 1000000000n, new CelTimestamp(1000000000n, 0)],
    ["string_to_timestamp", "2009-02-13T23:31:30Z", new CelTimestamp(1234567890n, 0)],
    ["duration_to_duration", new CelDuration(7n), new CelDuration(7n)],
    ["string_to_duration", "1h", new CelDuration(3_600_000_000_000n)],
    ["to_dyn", "x", "x"],
  ])("%s(%s)", (id, arg, result) => {
    expect(call(id, arg)).toEqual(result);
  });

  it.each<[string, CelValue, string]>([
    ["uint64_to_int64", new CelUint(18446744073709551615n), "integer overflow"],
    ["double_to_int64", 2 ** 63, "integer overflow"],
    ["double_to_int64", -(2 ** 63), "integer overflow"],
    ["double_to_int64", 1e99, "integer overflow"],
    ["double_to_int64", Number.NaN, "integer overflow"],
    ["double_to_int64", Number.NEGATIVE_INFINITY, "integer overflow"],
    ["int64_to_uint64", -1n, "unsigned integer overflow"],
    ["double_to_uint64", 6.022e23, "unsigned integer overflow"],
    ["double_to_uint64", 2 ** 64, "unsigned integer overflow"],
    ["double_to_uint64", -0.5, "unsigned integer overflow"],
    ["string_to_int64", "1.5", "type conversion error from 'string' to 'int'"],
    ["string_to_uint64", "-1", "type conversion error from 'string' to 'uint'"],
    ["string_to_double", "1e400", "type conversion error from 'string' to 'double'"],
    ["string_to_bool", "TrUe", "type conversion error from 'string' to 'bool'"],
    ["bytes_to_string", bytes(0x00, 0xff), "invalid UTF-8 in bytes, cannot convert to string"],
    ["bytes_to_string", bytes(0xed, 0xa0, 0x80), "invalid UTF-8 in bytes, cannot convert to string"],
    ["int64_to_timestamp", -62135596801n, "timestamp overflow"],
    ["int64_to_timestamp", 253402300800n, "timestamp overflow"],
    ["string_to_timestamp", "0000-01-01T00:00:00Z", "timestamp overflow"],
    ["int64_to_duration", 1n, "type conversion error from 'int' to 'google.protobuf.Duration'"],
    ["string_to_duration", "-320000000000s", "type conversion error from 'string' to 'google.protobuf.Duration'"],
  ])("%s(%s) fails", (id, arg, text) => {
    expect(message(call(id, arg))).toBe(text);
  });

  it("answers no such overload for a value of another type", () => {
    expect(message(call("int64_to_int64", "1"))).toBe("no such overload");
    expect(message(call("string_to_int64", 1n))).toBe("no such overload");
  });
});

describe("type()", () => {
  const typeOf = (v: CelValue) => {
    const t = call("type", v);
    if (!(t instanceof CelTypeValue)) throw new Error("not a type value");
    return t.type;
  };

  it.each<[CelValue, string]>([
    [true, "bool"],
    [0n, "int"],
    [new CelUint(0n), "uint"],
    [3.14, "double"],
    [null, "null_type"],
    ["foo", "string"],
    [bytes(0xff), "bytes"],
    [new ArrayList([1n]), "list"],
    [new HashMap([["k", 1n]]), "map"],
    [new CelTimestamp(0n, 0), "google.protobuf.Timestamp"],
    [new CelDuration(0n), "google.protobuf.Duration"],
  ])("type(%s) is %s", (v, name) => {
    expect(typeName(typeOf(v))).toBe(name);
  });

  it("drops list and map parameters and makes every type's type `type`", () => {
    expect(formatType(typeOf(new ArrayList([1n])))).toBe("list(dyn)");
    expect(formatType(typeOf(new HashMap([["k", 1n]])))).toBe("map(dyn, dyn)");
    expect(formatType(typeOf(call("type", 7n)))).toBe("type");
  });
});
