// String formats that change a value's CEL type, decoded as kube-openapi's strfmt decodes them for
// CEL: date-time and date → timestamp, duration → duration (Go durations, or strfmt's spelled-out
// units such as `3 days`), byte → bytes (standard base64).

import { isBase64 } from "../../validation/formats.js";
import { CelDuration, CelError, CelTimestamp, type CelValue } from "../common/values.js";

// The layouts strfmt.ParseDateTime tries: RFC 3339 with any fraction, a local time without a zone,
// minutes only, and the "universal sortable" `2006-01-02 15:04:05`.
const dateTimeLayout =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?|[ ](\d{2}):(\d{2}):(\d{2}))([Zz]|[+-]\d{2}:?\d{2})?$/;
const dateLayout = /^(\d{4})-(\d{2})-(\d{2})$/;

export function parseDateTime(s: string): CelValue {
  // strfmt reads an empty date-time as the zero time.
  if (s === "") return timestampOf(1, 1, 1, 0, 0, 0, 0, 0) ?? invalid("date-time", s);
  const m = dateTimeLayout.exec(s);
  const [, y, mo, d, h1, mi1, s1, frac, h2, mi2, s2, zone] = m ?? [];
  const hour = h1 ?? h2;
  const minute = mi1 ?? mi2;
  if (m === null || hour === undefined || minute === undefined) return invalid("date-time", s);
  const t = timestampOf(
    Number(y),
    Number(mo),
    Number(d),
    Number(hour),
    Number(minute),
    Number(s1 ?? s2 ?? 0),
    Number((frac ?? "").padEnd(9, "0")),
    zoneOffset(zone),
  );
  return t ?? invalid("date-time", s);
}

export function parseDate(s: string): CelValue {
  const m = dateLayout.exec(s);
  if (m === null) return invalid("date", s);
  return timestampOf(Number(m[1]), Number(m[2]), Number(m[3]), 0, 0, 0, 0, 0) ?? invalid("date", s);
}

export function parseBase64(s: string): CelValue {
  if (!isBase64(s)) return new CelError(`Invalid byte formatted string ${s}: illegal base64 data`);
  return new Uint8Array(Buffer.from(s, "base64"));
}

function invalid(format: string, s: string): CelError {
  return new CelError(`Invalid ${format} formatted string ${s}: cannot parse ${JSON.stringify(s)}`);
}

function zoneOffset(zone: string | undefined): number {
  if (zone === undefined || zone === "Z" || zone === "z") return 0;
  const digits = zone.replace(":", "");
  const minutes = Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5));
  return zone.startsWith("-") ? -minutes : minutes;
}

const daysInMonth = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's days_from_civil). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function timestampOf(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
  nanos: number,
  offsetMinutes: number,
): CelTimestamp | undefined {
  if (month < 1 || month > 12 || day < 1) return undefined;
  const monthDays = month === 2 && isLeap(year) ? 29 : (daysInMonth[month - 1] ?? 0);
  if (day > monthDays || hour > 23 || minute > 59 || second > 59) return undefined;
  const seconds = daysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second - offsetMinutes * 60;
  return new CelTimestamp(BigInt(seconds), nanos);
}

const goUnits: Readonly<Record<string, bigint>> = {
  ns: 1n,
  us: 1_000n,
  µs: 1_000n,
  μs: 1_000n,
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};
const goDuration = /^[+-]?(?:\d*\.?\d*(?:ns|us|µs|μs|ms|s|m|h))+$/;
const goDurationPart = /(\d*)\.?(\d*)(ns|us|µs|μs|ms|s|m|h)/g;

/** strfmt's spelled-out units: the first spelling is the unit, the last may be a prefix (`days`, `weeks`). */
const spelledUnits: readonly (readonly [bigint, readonly string[]])[] = [
  [1n, ["ns", "nano"]],
  [1_000n, ["us", "µs", "micro"]],
  [1_000_000n, ["ms", "milli"]],
  [1_000_000_000n, ["s", "sec"]],
  [60_000_000_000n, ["m", "min"]],
  [3_600_000_000_000n, ["h", "hr", "hour"]],
  [86_400_000_000_000n, ["d", "day"]],
  [604_800_000_000_000n, ["w", "wk", "week"]],
];
const spelledPart = /(\d+)\s*([A-Za-zµ]+)/g;

export function parseDuration(s: string): CelValue {
  const go = parseGoDuration(s);
  if (go !== undefined) return new CelDuration(go);
  let nanos = 0n;
  let matched = false;
  for (const [, count, rawUnit] of s.matchAll(spelledPart)) {
    const unit = (rawUnit ?? "").toLowerCase();
    for (const [multiplier, spellings] of spelledUnits) {
      spellings.forEach((spelling, i) => {
        if (unit === spelling || (i === spellings.length - 1 && unit.startsWith(spelling))) {
          matched = true;
          nanos += BigInt(count ?? "0") * multiplier;
        }
      });
    }
  }
  if (!matched) return new CelError(`Invalid duration ${s}: unable to parse ${s} as duration`);
  return new CelDuration(nanos);
}

/** Go's time.ParseDuration: `1h30m`, `-1.5s`, `0`. */
function parseGoDuration(s: string): bigint | undefined {
  if (s === "0" || s === "+0" || s === "-0") return 0n;
  if (s === "" || !goDuration.test(s)) return undefined;
  let total = 0n;
  for (const [, whole, frac, unit] of s.matchAll(goDurationPart)) {
    if ((whole ?? "") === "" && (frac ?? "") === "") return undefined;
    const scale = goUnits[unit ?? ""] ?? 1n;
    total += BigInt(whole || "0") * scale;
    if (frac) total += (BigInt(frac) * scale) / 10n ** BigInt(frac.length);
  }
  return s.startsWith("-") ? -total : total;
}
