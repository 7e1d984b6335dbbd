// The timestamp and duration accessors: `t.getFullYear()`, `t.getHours('America/New_York')`,
// `d.getMinutes()`, … with cel-go's overload ids. Timestamp fields are in UTC unless a time zone is
// given; months, days of the month and days of the year count from zero, `getDate()` from one.

import { DurationType, IntType, StringType, TimestampType } from "../../common/cel-types.js";
import type { FunctionDecl, OverloadImpl } from "../../common/decls.js";
import { CelDuration, CelError, CelTimestamp } from "../../common/values.js";
import { declareFunction, memberOverload } from "./declare.js";
import { durationHours, durationMilliseconds, durationMinutes, durationSeconds } from "./durations.js";
import { noSuchOverload } from "./overload-errors.js";
import { type CalendarFields, calendarFields } from "./standard-timestamps.js";
import { resolveTimeZone } from "./time-zones.js";

type Field = (fields: CalendarFields, t: CelTimestamp) => number;

function inUtc(field: Field): OverloadImpl {
  return (args) => {
    const t = args[0];
    if (!(t instanceof CelTimestamp)) return noSuchOverload();
    return BigInt(field(calendarFields(Number(t.seconds)), t));
  };
}

function inZone(field: Field): OverloadImpl {
  return (args) => {
    const t = args[0];
    const zoneName = args[1];
    if (!(t instanceof CelTimestamp) || typeof zoneName !== "string") return noSuchOverload();
    const zone = resolveTimeZone(zoneName);
    if (zone instanceof CelError) return zone;
    const seconds = Number(t.seconds);
    return BigInt(field(calendarFields(seconds + zone(seconds)), t));
  };
}

function ofDuration(read: (d: CelDuration) => bigint): OverloadImpl {
  return (args) => {
    const d = args[0];
    return d instanceof CelDuration ? read(d) : noSuchOverload();
  };
}

/** A timestamp accessor: `name()` in UTC and `name(zone)`, with ids `<id>` and `<zoneId>`. */
function timestampAccessor(name: string, id: string, zoneId: string, field: Field, duration?: [string, OverloadImpl]) {
  return declareFunction(
    name,
    memberOverload(id, [TimestampType], IntType, inUtc(field)),
    memberOverload(zoneId, [TimestampType, StringType], IntType, inZone(field)),
    ...(duration ? [memberOverload(duration[0], [DurationType], IntType, duration[1])] : []),
  );
}

export const timeFunctions: readonly FunctionDecl[] = [
  timestampAccessor("getFullYear", "timestamp_to_year", "timestamp_to_year_with_tz", (f) => f.year),
  timestampAccessor("getMonth", "timestamp_to_month", "timestamp_to_month_with_tz", (f) => f.month - 1),
  timestampAccessor("getDayOfYear", "timestamp_to_day_of_year", "timestamp_to_day_of_year_with_tz", (f) => f.dayOfYear),
  timestampAccessor(
    "getDayOfMonth",
    "timestamp_to_day_of_month",
    "timestamp_to_day_of_month_with_tz",
    (f) => f.day - 1,
  ),
  timestampAccessor(
    "getDate",
    "timestamp_to_day_of_month_1_based",
    "timestamp_to_day_of_month_1_based_with_tz",
    (f) => f.day,
  ),
  timestampAccessor("getDayOfWeek", "timestamp_to_day_of_week", "timestamp_to_day_of_week_with_tz", (f) => f.dayOfWeek),
  timestampAccessor("getHours", "timestamp_to_hours", "timestamp_to_hours_with_tz", (f) => f.hour, [
    "duration_to_hours",
    ofDuration(durationHours),
  ]),
  timestampAccessor("getMinutes", "timestamp_to_minutes", "timestamp_to_minutes_with_tz", (f) => f.minute, [
    "duration_to_minutes",
    ofDuration(durationMinutes),
  ]),
  timestampAccessor("getSeconds", "timestamp_to_seconds", "timestamp_to_seconds_tz", (f) => f.second, [
    "duration_to_seconds",
    ofDuration(durationSeconds),
  ]),
  timestampAccessor(
    "getMilliseconds",
    "timestamp_to_milliseconds",
    "timestamp_to_milliseconds_with_tz",
    (_, t) => Math.floor(t.nanos / 1e6),
    ["duration_to_milliseconds", ofDuration(durationMilliseconds)],
  ),
];
