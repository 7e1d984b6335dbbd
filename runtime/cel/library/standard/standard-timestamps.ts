// Timestamps as cel-go handles them: RFC 3339 text in and out (nanoseconds, numeric offsets), the
// range 0001-01-01T00:00:00Z..9999-12-31T23:59:59.999999999Z (outside it: "timestamp overflow"),
// arithmetic with durations, and the calendar fields the accessors read (in UTC or at an offset).
import { CelDuration, type CelError, CelTimestamp, INT64_MAX, INT64_MIN } from "../../common/values.js";
import { conversionError, intOverflow, timestampOverflow } from "./overload-errors.js";

export const MIN_UNIX_SECONDS = -62135596800n;
export const MAX_UNIX_SECONDS = 253402300799n;
export const NANOS_PER_SECOND = 1_000_000_000n;
const SECONDS_PER_DAY = 86400;

/** `timestamp(int)`: seconds since the epoch. */
export function timestampFromSeconds(seconds: bigint): CelTimestamp | CelError {
  if (seconds < MIN_UNIX_SECONDS || seconds > MAX_UNIX_SECONDS) return timestampOverflow();
  return new CelTimestamp(seconds, 0);
}

// RFC 3339 strictly (as cel-go gates `timestamp()`): two-digit fields, '.' before the fraction, a 'Z'
// or a ±hh:mm offset with hours below 24.
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:Z|([+-])(\d{2}):(\d{2}))$/;

/** `timestamp(string)`. */
export function parseTimestamp(text: string): CelTimestamp | CelError {
  const m = RFC3339.exec(text);
  if (!m) return conversionError("string", "google.protobuf.Timestamp");
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const offsetHours = m[8] === undefined ? 0 : Number(m[9]);
  const offsetMinutes = m[8] === undefined ? 0 : Number(m[10]);
  if (
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > daysInMonth(year, month) ||
    hour > 23 ||
    minute > 59 ||
    second > 59 ||
    offsetHours > 23 ||
    offsetMinutes > 59
  ) {
    return conversionError("string", "google.protobuf.Timestamp");
  }
  const offset = (m[8] === "-" ? -1 : 1) * (offsetHours * 3600 + offsetMinutes * 60);
  const seconds = BigInt(
    daysFromCivil(year, month, day) * SECONDS_PER_DAY + hour * 3600 + minute * 60 + second - offset,
  );
  if (seconds < MIN_UNIX_SECONDS || seconds > MAX_UNIX_SECONDS) return timestampOverflow();
  // Go keeps nine fractional digits and drops the rest.
  const nanos = m[7] === undefined ? 0 : Number(m[7].slice(0, 9).padEnd(9, "0"));
  return new CelTimestamp(seconds, nanos);
}

/** RFC 3339 in UTC with the fraction trimmed of trailing zeros (Go's RFC3339Nano). */
export function formatTimestamp(t: CelTimestamp): string {
  const f = calendarFields(Number(t.seconds));
  const date = `${String(f.year).padStart(4, "0")}-${two(f.month)}-${two(f.day)}`;
  const time = `${two(f.hour)}:${two(f.minute)}:${two(f.second)}`;
  const fraction = t.nanos === 0 ? "" : `.${String(t.nanos).padStart(9, "0").replace(/0+$/, "")}`;
  return `${date}T${time}${fraction}Z`;
}

function two(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

export function compareTimestamps(a: CelTimestamp, b: CelTimestamp): number {
  if (a.seconds !== b.seconds) return a.seconds < b.seconds ? -1 : 1;
  return a.nanos < b.nanos ? -1 : a.nanos > b.nanos ? 1 : 0;
}

/** timestamp + duration; the duration's whole seconds and remainder are added separately, as Go does. */
export function addToTimestamp(t: CelTimestamp, d: CelDuration): CelTimestamp | CelError {
  let seconds = t.seconds + d.nanos / NANOS_PER_SECOND;
  let nanos = t.nanos + Number(d.nanos % NANOS_PER_SECOND);
  if (nanos < 0) {
    nanos += 1e9;
    seconds -= 1n;
  } else if (nanos >= 1e9) {
    nanos -= 1e9;
    seconds += 1n;
  }
  if (seconds < MIN_UNIX_SECONDS || seconds > MAX_UNIX_SECONDS) return timestampOverflow();
  return new CelTimestamp(seconds, nanos);
}

/** timestamp - duration = timestamp + (-duration); negating the smallest duration overflows. */
export function subtractFromTimestamp(t: CelTimestamp, d: CelDuration): CelTimestamp | CelError {
  if (d.nanos === INT64_MIN) return intOverflow();
  return addToTimestamp(t, new CelDuration(-d.nanos));
}

/** timestamp - timestamp: the nanoseconds between them, which must fit a duration (int64 nanoseconds). */
export function timestampDifference(a: CelTimestamp, b: CelTimestamp): CelDuration | CelError {
  const wholeSeconds = (a.seconds - b.seconds) * NANOS_PER_SECOND;
  if (wholeSeconds < INT64_MIN || wholeSeconds > INT64_MAX) return intOverflow();
  const nanos = wholeSeconds + BigInt(a.nanos - b.nanos);
  if (nanos < INT64_MIN || nanos > INT64_MAX) return intOverflow();
  return new CelDuration(nanos);
}

export interface CalendarFields {
  readonly year: number;
  /** 1–12. */
  readonly month: number;
  /** 1–31. */
  readonly day: number;
  /** 0 (January 1st) to 365. */
  readonly dayOfYear: number;
  /** 0 (Sunday) to 6. */
  readonly dayOfWeek: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
}

/** The proleptic Gregorian calendar fields of a count of seconds since the epoch (local seconds when offset). */
export function calendarFields(seconds: number): CalendarFields {
  const days = Math.floor(seconds / SECONDS_PER_DAY);
  const secondOfDay = seconds - days * SECONDS_PER_DAY;
  const { year, month, day } = civilFromDays(days);
  return {
    year,
    month,
    day,
    dayOfYear: days - daysFromCivil(year, 1, 1),
    // 1970-01-01 was a Thursday.
    dayOfWeek: (((days + 4) % 7) + 7) % 7,
    hour: Math.floor(secondOfDay / 3600),
    minute: Math.floor((secondOfDay % 3600) / 60),
    second: secondOfDay % 60,
  };
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

// Days between the epoch and a civil date, and back (Howard Hinnant's algorithms: 400-year eras of
// 146097 days, years starting in March so the leap day comes last).
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146097 + dayOfEra - 719468;
}

function civilFromDays(days: number): { year: number; month: number; day: number } {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const dayOfEra = z - era * 146097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36524) - Math.floor(dayOfEra / 146096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthIndex = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthIndex + 2) / 5) + 1;
  const month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9;
  return { year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day };
}
