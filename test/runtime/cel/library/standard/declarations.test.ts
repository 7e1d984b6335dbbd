import { describe, expect, it } from "vitest";
import { formatType } from "../../../../../runtime/cel/common/cel-types.js";
import { overload, standardFunctions } from "./overloads.js";

// cel-go's common/stdlib declarations: overload id → signature (receiver first for member overloads).
const CEL_GO_SIGNATURES: readonly [string, string][] = [
  ["conditional", "_?_:_(bool, A, A) -> A"],
  ["logical_and", "_&&_(bool, bool) -> bool"],
  ["logical_or", "_||_(bool, bool) -> bool"],
  ["logical_not", "!_(bool) -> bool"],
  ["not_strictly_false", "@not_strictly_false(bool) -> bool"],
  ["equals", "_==_(A, A) -> bool"],
  ["not_equals", "_!=_(A, A) -> bool"],
  ["less_bool", "_<_(bool, bool) -> bool"],
  ["less_int64", "_<_(int, int) -> bool"],
  ["less_int64_double", "_<_(int, double) -> bool"],
  ["less_int64_uint64", "_<_(int, uint) -> bool"],
  ["less_uint64", "_<_(uint, uint) -> bool"],
  ["less_uint64_double", "_<_(uint, double) -> bool"],
  ["less_uint64_int64", "_<_(uint, int) -> bool"],
  ["less_double", "_<_(double, double) -> bool"],
  ["less_double_int64", "_<_(double, int) -> bool"],
  ["less_double_uint64", "_<_(double, uint) -> bool"],
  ["less_string", "_<_(string, string) -> bool"],
  ["less_bytes", "_<_(bytes, bytes) -> bool"],
  ["less_timestamp", "_<_(google.protobuf.Timestamp, google.protobuf.Timestamp) -> bool"],
  ["less_duration", "_<_(google.protobuf.Duration, google.protobuf.Duration) -> bool"],
  ["less_equals_bool", "_<=_(bool, bool) -> bool"],
  ["less_equals_int64", "_<=_(int, int) -> bool"],
  ["less_equals_int64_double", "_<=_(int, double) -> bool"],
  ["less_equals_int64_uint64", "_<=_(int, uint) -> bool"],
  ["less_equals_uint64", "_<=_(uint, uint) -> bool"],
  ["less_equals_uint64_double", "_<=_(uint, double) -> bool"],
  ["less_equals_uint64_int64", "_<=_(uint, int) -> bool"],
  ["less_equals_double", "_<=_(double, double) -> bool"],
  ["less_equals_double_int64", "_<=_(double, int) -> bool"],
  ["less_equals_double_uint64", "_<=_(double, uint) -> bool"],
  ["less_equals_string", "_<=_(string, string) -> bool"],
  ["less_equals_bytes", "_<=_(bytes, bytes) -> bool"],
  ["less_equals_timestamp", "_<=_(google.protobuf.Timestamp, google.protobuf.Timestamp) -> bool"],
  ["less_equals_duration", "_<=_(google.protobuf.Duration, google.protobuf.Duration) -> bool"],
  ["greater_bool", "_>_(bool, bool) -> bool"],
  ["greater_int64", "_>_(int, int) -> bool"],
  ["greater_int64_double", "_>_(int, double) -> bool"],
  ["greater_int64_uint64", "_>_(int, uint) -> bool"],
  ["greater_uint64", "_>_(uint, uint) -> bool"],
  ["greater_uint64_double", "_>_(uint, double) -> bool"],
  ["greater_uint64_int64", "_>_(uint, int) -> bool"],
  ["greater_double", "_>_(double, double) -> bool"],
  ["greater_double_int64", "_>_(double, int) -> bool"],
  ["greater_double_uint64", "_>_(double, uint) -> bool"],
  ["greater_string", "_>_(string, string) -> bool"],
  ["greater_bytes", "_>_(bytes, bytes) -> bool"],
  ["greater_timestamp", "_>_(google.protobuf.Timestamp, google.protobuf.Timestamp) -> bool"],
  ["greater_duration", "_>_(google.protobuf.Duration, google.protobuf.Duration) -> bool"],
  ["greater_equals_bool", "_>=_(bool, bool) -> bool"],
  ["greater_equals_int64", "_>=_(int, int) -> bool"],
  ["greater_equals_int64_double", "_>=_(int, double) -> bool"],
  ["greater_equals_int64_uint64", "_>=_(int, uint) -> bool"],
  ["greater_equals_uint64", "_>=_(uint, uint) -> bool"],
  ["greater_equals_uint64_double", "_>=_(uint, double) -> bool"],
  ["greater_equals_uint64_int64", "_>=_(uint, int) -> bool"],
  ["greater_equals_double", "_>=_(double, double) -> bool"],
  ["greater_equals_double_int64", "_>=_(double, int) -> bool"],
  ["greater_equals_double_uint64", "_>=_(double, uint) -> bool"],
  ["greater_equals_string", "_>=_(string, string) -> bool"],
  ["greater_equals_bytes", "_>=_(bytes, bytes) -> bool"],
  ["greater_equals_timestamp", "_>=_(google.protobuf.Timestamp, google.protobuf.Timestamp) -> bool"],
  ["greater_equals_duration", "_>=_(google.protobuf.Duration, google.protobuf.Duration) -> bool"],
  ["add_bytes", "_+_(bytes, bytes) -> bytes"],
  ["add_double", "_+_(double, double) -> double"],
  ["add_duration_duration", "_+_(google.protobuf.Duration, google.protobuf.Duration) -> google.protobuf.Duration"],
  ["add_duration_timestamp", "_+_(google.protobuf.Duration, google.protobuf.Timestamp) -> google.protobuf.Timestamp"],
  ["add_timestamp_duration", "_+_(google.protobuf.Timestamp, google.protobuf.Duration) -> google.protobuf.Timestamp"],
  ["add_int64", "_+_(int, int) -> int"],
  ["add_list", "_+_(list(A), list(A)) -> list(A)"],
  ["add_string", "_+_(string, string) -> string"],
  ["add_uint64", "_+_(uint, uint) -> uint"],
  ["divide_double", "_/_(double, double) -> double"],
  ["divide_int64", "_/_(int, int) -> int"],
  ["divide_uint64", "_/_(uint, uint) -> uint"],
  ["modulo_int64", "_%_(int, int) -> int"],
  ["modulo_uint64", "_%_(uint, uint) -> uint"],
  ["multiply_double", "_*_(double, double) -> double"],
  ["multiply_int64", "_*_(int, int) -> int"],
  ["multiply_uint64", "_*_(uint, uint) -> uint"],
  ["negate_double", "-_(double) -> double"],
  ["negate_int64", "-_(int) -> int"],
  ["subtract_double", "_-_(double, double) -> double"],
  ["subtract_duration_duration", "_-_(google.protobuf.Duration, google.protobuf.Duration) -> google.protobuf.Duration"],
  ["subtract_int64", "_-_(int, int) -> int"],
  [
    "subtract_timestamp_duration",
    "_-_(google.protobuf.Timestamp, google.protobuf.Duration) -> google.protobuf.Timestamp",
  ],
  [
    "subtract_timestamp_timestamp",
    "_-_(google.protobuf.Timestamp, google.protobuf.Timestamp) -> google.protobuf.Duration",
  ],
  ["subtract_uint64", "_-_(uint, uint) -> uint"],
  ["size_bytes", "size(bytes) -> int"],
  ["bytes_size", "bytes.size() -> int"],
  ["size_list", "size(list(A)) -> int"],
  ["list_size", "list(A).size() -> int"],
  ["size_map", "size(map(A, B)) -> int"],
  ["map_size", "map(A, B).size() -> int"],
  ["size_string", "size(string) -> int"],
  ["string_size", "string.size() -> int"],
  ["index_list", "_[_](list(A), int) -> A"],
  ["index_map", "_[_](map(A, B), A) -> B"],
  ["in_list", "@in(A, list(A)) -> bool"],
  ["in_map", "@in(A, map(A, B)) -> bool"],
  ["type", "type(A) -> type(A)"],
  ["bool_to_bool", "bool(bool) -> bool"],
  ["string_to_bool", "bool(string) -> bool"],
  ["bytes_to_bytes", "bytes(bytes) -> bytes"],
  ["string_to_bytes", "bytes(string) -> bytes"],
  ["double_to_double", "double(double) -> double"],
  ["int64_to_double", "double(int) -> double"],
  ["string_to_double", "double(string) -> double"],
  ["uint64_to_double", "double(uint) -> double"],
  ["duration_to_duration", "duration(google.protobuf.Duration) -> google.protobuf.Duration"],
  ["int64_to_duration", "duration(int) -> google.protobuf.Duration"],
  ["string_to_duration", "duration(string) -> google.protobuf.Duration"],
  ["to_dyn", "dyn(A) -> dyn"],
  ["int64_to_int64", "int(int) -> int"],
  ["double_to_int64", "int(double) -> int"],
  ["duration_to_int64", "int(google.protobuf.Duration) -> int"],
  ["string_to_int64", "int(string) -> int"],
  ["timestamp_to_int64", "int(google.protobuf.Timestamp) -> int"],
  ["uint64_to_int64", "int(uint) -> int"],
  ["string_to_string", "string(string) -> string"],
  ["bool_to_string", "string(bool) -> string"],
  ["bytes_to_string", "string(bytes) -> string"],
  ["double_to_string", "string(double) -> string"],
  ["duration_to_string", "string(google.protobuf.Duration) -> string"],
  ["int64_to_string", "string(int) -> string"],
  ["timestamp_to_string", "string(google.protobuf.Timestamp) -> string"],
  ["uint64_to_string", "string(uint) -> string"],
  ["timestamp_to_timestamp", "timestamp(google.protobuf.Timestamp) -> google.protobuf.Timestamp"],
  ["int64_to_timestamp", "timestamp(int) -> google.protobuf.Timestamp"],
  ["string_to_timestamp", "timestamp(string) -> google.protobuf.Timestamp"],
  ["uint64_to_uint64", "uint(uint) -> uint"],
  ["double_to_uint64", "uint(double) -> uint"],
  ["int64_to_uint64", "uint(int) -> uint"],
  ["string_to_uint64", "uint(string) -> uint"],
  ["contains_string", "string.contains(string) -> bool"],
  ["ends_with_string", "string.endsWith(string) -> bool"],
  ["starts_with_string", "string.startsWith(string) -> bool"],
  ["matches", "matches(string, string) -> bool"],
  ["matches_string", "string.matches(string) -> bool"],
  ["timestamp_to_year", "google.protobuf.Timestamp.getFullYear() -> int"],
  ["timestamp_to_year_with_tz", "google.protobuf.Timestamp.getFullYear(string) -> int"],
  ["timestamp_to_month", "google.protobuf.Timestamp.getMonth() -> int"],
  ["timestamp_to_month_with_tz", "google.protobuf.Timestamp.getMonth(string) -> int"],
  ["timestamp_to_day_of_year", "google.protobuf.Timestamp.getDayOfYear() -> int"],
  ["timestamp_to_day_of_year_with_tz", "google.protobuf.Timestamp.getDayOfYear(string) -> int"],
  ["timestamp_to_day_of_month", "google.protobuf.Timestamp.getDayOfMonth() -> int"],
  ["timestamp_to_day_of_month_with_tz", "google.protobuf.Timestamp.getDayOfMonth(string) -> int"],
  ["timestamp_to_day_of_month_1_based", "google.protobuf.Timestamp.getDate() -> int"],
  ["timestamp_to_day_of_month_1_based_with_tz", "google.protobuf.Timestamp.getDate(string) -> int"],
  ["timestamp_to_day_of_week", "google.protobuf.Timestamp.getDayOfWeek() -> int"],
  ["timestamp_to_day_of_week_with_tz", "google.protobuf.Timestamp.getDayOfWeek(string) -> int"],
  ["timestamp_to_hours", "google.protobuf.Timestamp.getHours() -> int"],
  ["timestamp_to_hours_with_tz", "google.protobuf.Timestamp.getHours(string) -> int"],
  ["duration_to_hours", "google.protobuf.Duration.getHours() -> int"],
  ["timestamp_to_minutes", "google.protobuf.Timestamp.getMinutes() -> int"],
  ["timestamp_to_minutes_with_tz", "google.protobuf.Timestamp.getMinutes(string) -> int"],
  ["duration_to_minutes", "google.protobuf.Duration.getMinutes() -> int"],
  ["timestamp_to_seconds", "google.protobuf.Timestamp.getSeconds() -> int"],
  ["timestamp_to_seconds_tz", "google.protobuf.Timestamp.getSeconds(string) -> int"],
  ["duration_to_seconds", "google.protobuf.Duration.getSeconds() -> int"],
  ["timestamp_to_milliseconds", "google.protobuf.Timestamp.getMilliseconds() -> int"],
  ["timestamp_to_milliseconds_with_tz", "google.protobuf.Timestamp.getMilliseconds(string) -> int"],
  ["duration_to_milliseconds", "google.protobuf.Duration.getMilliseconds() -> int"],
];

function signatures(): [string, string][] {
  const out: [string, string][] = [];
  for (const fn of standardFunctions) {
    for (const o of fn.overloads) {
      const params = o.params.map(formatType);
      const call = o.member
        ? `${params[0]}.${fn.name}(${params.slice(1).join(", ")})`
        : `${fn.name}(${params.join(", ")})`;
      out.push([o.id, `${call} -> ${formatType(o.result)}`]);
    }
  }
  return out;
}

describe("standard declarations", () => {
  it("declare cel-go's functions, overload ids and signatures", () => {
    expect(signatures()).toEqual(CEL_GO_SIGNATURES);
  });

  it("implement every overload", () => {
    for (const fn of standardFunctions) for (const o of fn.overloads) expect(o.impl, o.id).toBeDefined();
  });

  it("list the type parameters each generic signature mentions", () => {
    for (const [id, signature] of signatures()) {
      const mentioned = ["A", "B"].filter((name) => new RegExp(`\\b${name}\\b`).test(signature));
      expect(overload(id).typeParams ?? [], id).toEqual(mentioned);
    }
  });

  it("mark the logical operators non-strict", () => {
    const nonStrict = standardFunctions.filter((fn) => fn.nonStrict).map((fn) => fn.name);
    expect(nonStrict).toEqual(["_?_:_", "_&&_", "_||_", "@not_strictly_false"]);
  });
});
