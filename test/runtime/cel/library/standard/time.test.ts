import { describe, expect, it } from "vitest";
import { CelDuration, CelError, type CelTimestamp } from "../../../../../runtime/cel/common/values.js";
import { formatDuration, parseDuration } from "../../../../../runtime/cel/library/standard/durations.js";
import { formatTimestamp, parseTimestamp } from "../../../../../runtime/cel/library/standard/standard-timestamps.js";
import { call, message } from "./overloads.js";

function ts(text: string): CelTimestamp {
  const t = parseTimestamp(text);
  if (t instanceof CelError) throw new Error(t.message);
  return t;
}

function dur(text: string): CelDuration {
  const d = parseDuration(text);
  if (d instanceof CelError) throw new Error(d.message);
  return d;
}

describe("timestamp text", () => {
  it.each([
    ["2009-02-13T23:31:30Z", 1234567890n, 0],
    ["1970-01-01T00:00:00Z", 0n, 0],
    ["2009-02-13T23:31:20.123456789Z", 1234567880n, 123456789],
    ["2009-02-13T23:31:20.1Z", 1234567880n, 100000000],
    ["2009-02-13T23:31:20.1234567891Z", 1234567880n, 123456789],
    ["2009-02-14T00:31:30+01:00", 1234567890n, 0],
    ["2009-02-13T20:01:30-03:30", 1234567890n, 0],
    ["0001-01-01T00:00:00Z", -62135596800n, 0],
    ["9999-12-31T23:59:59.999999999Z", 253402300799n, 999999999],
    ["2000-02-29T00:00:00Z", 951782400n, 0],
  ])("%s", (text, seconds, nanos) => {
    const t = ts(text);
    expect(t.seconds).toBe(seconds);
    expect(t.nanos).toBe(nanos);
  });

  it.each([
    "2009-02-13",
    "2009-02-13 23:31:30Z",
    "2009-02-13t23:31:30Z",
    "2009-02-13T23:31:30",
    "2009-2-13T23:31:30Z",
    "2009-02-13T23:31:30,5Z",
    "2009-02-13T24:00:00Z",
    "2009-02-13T23:60:00Z",
    "2009-02-13T23:59:60Z",
    "2009-13-01T00:00:00Z",
    "2009-02-29T00:00:00Z",
    "1900-02-29T00:00:00Z",
    "2009-02-13T23:31:30+24:00",
    "2009-02-13T23:31:30.Z",
    "10000-01-01T00:00:00Z",
  ])("refuses %j", (text) => {
    expect(message(parseTimestamp(text))).toBe("type conversion error from 'string' to 'google.protobuf.Timestamp'");
  });

  it.each(["0000-01-01T00:00:00Z", "9999-12-31T23:59:59-01:00", "0001-01-01T00:00:00+00:01"])(
    "%j is out of range",
    (text) => {
      expect(message(parseTimestamp(text))).toBe("timestamp overflow");
    },
  );

  it.each([
    ["2009-02-13T23:31:30Z", "2009-02-13T23:31:30Z"],
    ["2009-02-13T23:31:30.120Z", "2009-02-13T23:31:30.12Z"],
    ["9999-12-31T23:59:59.999999999Z", "9999-12-31T23:59:59.999999999Z"],
    ["0001-01-01T00:00:00.000000001Z", "0001-01-01T00:00:00.000000001Z"],
    ["2009-02-14T00:31:30+01:00", "2009-02-13T23:31:30Z"],
    ["1969-12-31T23:59:59.5Z", "1969-12-31T23:59:59.5Z"],
  ])("formats %s as %s", (text, formatted) => {
    expect(formatTimestamp(ts(text))).toBe(formatted);
  });
});

describe("duration text", () => {
  it.each([
    ["0", 0n, "0s"],
    ["100s", 100_000_000_000n, "100s"],
    ["1000000s", 1_000_000_000_000_000n, "1000000s"],
    ["1h2m3.5s", 3_723_500_000_000n, "3723.5s"],
    ["-1.5h", -5_400_000_000_000n, "-5400s"],
    ["+3m", 180_000_000_000n, "180s"],
    ["300ms", 300_000_000n, "0.3s"],
    ["1ns", 1n, "0.000000001s"],
    ["2us", 2_000n, "0.000002s"],
    ["2µs", 2_000n, "0.000002s"],
    ["2μs", 2_000n, "0.000002s"],
    [".5s", 500_000_000n, "0.5s"],
    ["1.s", 1_000_000_000n, "1s"],
    ["-999999999ns", -999_999_999n, "-0.999999999s"],
    ["2562047h47m16.854775807s", 9223372036854775807n, "9223372036.854776s"],
    ["-2562047h47m16.854775808s", -9223372036854775808n, "-9223372036.854776s"],
  ])("%s", (text, nanos, formatted) => {
    const d = dur(text);
    expect(d.nanos).toBe(nanos);
    expect(formatDuration(d)).toBe(formatted);
  });

  it.each(["", "-", "1", "s", "1d", "1.5", "1h-2m", ".s", "2562047h47m16.854775808s", "320000000000s", " 1s"])(
    "refuses %j",
    (text) => {
      expect(message(parseDuration(text))).toBe("type conversion error from 'string' to 'google.protobuf.Duration'");
    },
  );
});

describe("timestamp accessors", () => {
  const t = ts("2009-02-13T23:31:30Z");
  it.each([
    ["timestamp_to_year", 2009n],
    ["timestamp_to_month", 1n],
    ["timestamp_to_day_of_year", 43n],
    ["timestamp_to_day_of_month", 12n],
    ["timestamp_to_day_of_month_1_based", 13n],
    ["timestamp_to_day_of_week", 5n],
    ["timestamp_to_hours", 23n],
    ["timestamp_to_minutes", 31n],
    ["timestamp_to_seconds", 30n],
  ])("%s in UTC", (id, value) => {
    expect(call(id, t)).toBe(value);
  });

  it("milliseconds come from the nanoseconds", () => {
    expect(call("timestamp_to_milliseconds", ts("2009-02-13T23:31:20.123456789Z"))).toBe(123n);
  });

  it.each([
    ["timestamp_to_day_of_month_1_based_with_tz", "2009-02-13T23:31:30Z", "Australia/Sydney", 14n],
    ["timestamp_to_day_of_month_with_tz", "2009-02-13T23:31:30Z", "US/Central", 12n],
    ["timestamp_to_day_of_month_with_tz", "2009-02-13T23:31:30Z", "+11:00", 13n],
    ["timestamp_to_day_of_month_with_tz", "2009-02-13T02:00:00Z", "-02:30", 11n],
    ["timestamp_to_day_of_month_with_tz", "2009-02-13T02:00:00Z", "America/St_Johns", 11n],
    ["timestamp_to_day_of_week_with_tz", "2009-02-13T23:31:30Z", "UTC", 5n],
    ["timestamp_to_day_of_year_with_tz", "2009-02-13T23:31:30Z", "US/Central", 43n],
    ["timestamp_to_year_with_tz", "2009-02-13T23:31:30Z", "-09:30", 2009n],
    ["timestamp_to_hours_with_tz", "2009-02-13T23:31:30Z", "02:00", 1n],
    ["timestamp_to_minutes_with_tz", "2009-02-13T23:31:30Z", "Asia/Kathmandu", 16n],
    ["timestamp_to_month_with_tz", "2009-02-13T23:31:30Z", "UTC", 1n],
    ["timestamp_to_seconds_tz", "2009-02-13T23:31:30Z", "-00:00", 30n],
    ["timestamp_to_hours_with_tz", "2009-07-01T12:00:00Z", "Europe/Paris", 14n],
    ["timestamp_to_hours_with_tz", "2009-01-01T12:00:00Z", "Europe/Paris", 13n],
    ["timestamp_to_hours_with_tz", "2009-02-13T23:31:30Z", "+05:30", 5n],
    ["timestamp_to_year_with_tz", "0001-01-01T00:00:00Z", "-01:00", 0n],
    ["timestamp_to_milliseconds_with_tz", "2009-02-13T23:31:20.123456789Z", "Asia/Tokyo", 123n],
  ])("%s(%s, %s)", (id, text, zone, value) => {
    expect(call(id, ts(text), zone)).toBe(value);
  });

  it("reports unknown zones and bad offsets as Go does", () => {
    expect(message(call("timestamp_to_hours_with_tz", t, "Mars/Olympus"))).toBe("unknown time zone Mars/Olympus");
    expect(message(call("timestamp_to_hours_with_tz", t, "x:00"))).toBe('strconv.Atoi: parsing "x": invalid syntax');
    expect(message(call("timestamp_to_hours_with_tz", t, "+01:"))).toBe('strconv.Atoi: parsing "": invalid syntax');
  });

  it("walks the calendar across leap years and the epoch", () => {
    expect(call("timestamp_to_day_of_year", ts("2000-12-31T00:00:00Z"))).toBe(365n);
    expect(call("timestamp_to_day_of_week", ts("1969-12-31T23:59:59Z"))).toBe(3n);
    expect(call("timestamp_to_day_of_month_1_based", ts("1600-02-29T12:00:00Z"))).toBe(29n);
    expect(call("timestamp_to_year", ts("0001-01-01T00:00:00Z"))).toBe(1n);
    expect(call("timestamp_to_day_of_week", ts("0001-01-01T00:00:00Z"))).toBe(1n);
  });
});

describe("duration accessors", () => {
  it.each([
    ["duration_to_hours", "10000s", 2n],
    ["duration_to_minutes", "3730s", 62n],
    ["duration_to_seconds", "3730s", 3730n],
    ["duration_to_milliseconds", "1.321s", 1321n],
    ["duration_to_hours", "-1.5h", -1n],
    ["duration_to_seconds", "-0.5s", 0n],
    ["duration_to_milliseconds", "-1500us", -1n],
  ])("%s(%s)", (id, text, value) => {
    expect(call(id, dur(text))).toBe(value);
  });
});

describe("timestamp and duration arithmetic", () => {
  it.each([
    ["2009-02-13T23:00:00Z", "240s", "2009-02-13T23:04:00Z"],
    ["0001-01-01T00:00:01.000000001Z", "-999999999ns", "0001-01-01T00:00:00.000000002Z"],
    ["0001-01-01T00:00:01.999999999Z", "999999999ns", "0001-01-01T00:00:02.999999998Z"],
    ["1970-01-01T00:00:00Z", "-1ns", "1969-12-31T23:59:59.999999999Z"],
  ])("%s + %s", (t, d, sum) => {
    expect(formatTimestamp(call("add_timestamp_duration", ts(t), dur(d)) as CelTimestamp)).toBe(sum);
    expect(formatTimestamp(call("add_duration_timestamp", dur(d), ts(t)) as CelTimestamp)).toBe(sum);
  });

  it("subtracts", () => {
    expect(
      formatTimestamp(call("subtract_timestamp_duration", ts("2009-02-13T23:10:00Z"), dur("600s")) as CelTimestamp),
    ).toBe("2009-02-13T23:00:00Z");
    expect(call("subtract_timestamp_timestamp", ts("2009-02-13T23:31:00Z"), ts("2009-02-13T23:29:00Z"))).toEqual(
      dur("120s"),
    );
    expect(call("subtract_duration_duration", dur("900s"), dur("42s"))).toEqual(dur("858s"));
    expect(call("add_duration_duration", dur("600s"), dur("50s"))).toEqual(dur("650s"));
  });

  it.each([
    ["add_timestamp_duration", ts("0001-01-01T00:00:00Z"), dur("-1s"), "timestamp overflow"],
    ["add_timestamp_duration", ts("9999-12-31T23:59:59Z"), dur("1s"), "timestamp overflow"],
    ["add_timestamp_duration", ts("9999-12-31T23:59:59.999999999Z"), dur("1ns"), "timestamp overflow"],
    ["add_timestamp_duration", ts("0001-01-01T00:00:00Z"), dur("-1ns"), "timestamp overflow"],
    ["subtract_timestamp_timestamp", ts("9999-12-31T23:59:59Z"), ts("0001-01-01T00:00:00Z"), "integer overflow"],
    ["subtract_timestamp_timestamp", ts("0001-01-01T00:00:00Z"), ts("9999-12-31T23:59:59Z"), "integer overflow"],
    ["add_duration_duration", dur("2562047h"), dur("2562047h"), "integer overflow"],
    ["subtract_duration_duration", dur("-2562047h"), dur("2562047h"), "integer overflow"],
    ["subtract_timestamp_duration", ts("2009-02-13T23:10:00Z"), new CelDuration(-(2n ** 63n)), "integer overflow"],
  ])("%s overflows", (id, a, b, text) => {
    expect(message(call(id, a, b))).toBe(text);
  });
});
