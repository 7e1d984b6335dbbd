// Durations as cel-go handles them: Go's time.Duration, a signed 64-bit count of nanoseconds (about
// ±292 years). Text in follows time.ParseDuration (`1h2m3.5s`, `-1.5h`, `300ms`, units ns us µs ms s
// m h); text out is the seconds with the shortest decimal digits (`3723.5s`); arithmetic overflow is
// "integer overflow".
import { CelDuration, type CelError, INT64_MAX, INT64_MIN } from "../../common/values.js";
import { formatFixed } from "./number-text.js";
import { conversionError, intOverflow } from "./overload-errors.js";

const UNIT_NANOS: ReadonlyMap<string, bigint> = new Map([
  ["ns", 1n],
  ["us", 1_000n],
  ["µs", 1_000n], // U+00B5 micro sign
  ["μs", 1_000n], // U+03BC Greek mu
  ["ms", 1_000_000n],
  ["s", 1_000_000_000n],
  ["m", 60_000_000_000n],
  ["h", 3_600_000_000_000n],
]);

const TWO_TO_63 = 2n ** 63n;

/** `duration(string)`. */
export function parseDuration(text: string): CelDuration | CelError {
  const nanos = parseGoDuration(text);
  return nanos === undefined ? conversionError("string", "google.protobuf.Duration") : new CelDuration(nanos);
}

/** Go's time.ParseDuration: `[-+]?([0-9]*(\.[0-9]*)?[a-z]+)+`, or "0"; undefined when invalid or out of range. */
function parseGoDuration(text: string): bigint | undefined {
  let s = text;
  let negative = false;
  if (s.startsWith("-") || s.startsWith("+")) {
    negative = s[0] === "-";
    s = s.slice(1);
  }
  if (s === "0") return 0n;
  if (s === "") return undefined;
  let total = 0n;
  while (s !== "") {
    const number = /^([0-9]*)(?:\.([0-9]*))?/.exec(s) as RegExpExecArray;
    const whole = number[1] as string;
    const fraction = number[2];
    if (whole === "" && (fraction === undefined || fraction === "")) return undefined;
    s = s.slice(number[0].length);
    const unitMatch = /^[^0-9.]+/.exec(s);
    if (!unitMatch) return undefined;
    const unit = UNIT_NANOS.get(unitMatch[0]);
    if (unit === undefined) return undefined;
    s = s.slice(unitMatch[0].length);

    let value = whole === "" ? 0n : BigInt(whole);
    if (value > TWO_TO_63 / unit) return undefined;
    value *= unit;
    if (fraction !== undefined && fraction !== "") {
      // Go accumulates fraction digits until they would overflow, then scales in floating point.
      let f = 0n;
      let scale = 1;
      for (const digit of fraction) {
        const next = f * 10n + BigInt(digit);
        if (next > TWO_TO_63) break;
        f = next;
        scale *= 10;
      }
      value += BigInt(Math.trunc(Number(f) * (Number(unit) / scale)));
      if (value > TWO_TO_63) return undefined;
    }
    total += value;
    if (total > TWO_TO_63) return undefined;
  }
  if (negative) return -total;
  return total > INT64_MAX ? undefined : total;
}

/** Go's Duration.Seconds() printed with the shortest digits, then "s". */
export function formatDuration(d: CelDuration): string {
  return `${formatFixed(toUnits(d.nanos, 1_000_000_000n))}s`;
}

/** Go's Duration.Hours()/Minutes()/Seconds(): whole units plus the remainder as a fraction, in float64. */
function toUnits(nanos: bigint, unit: bigint): number {
  return Number(nanos / unit) + Number(nanos % unit) / Number(unit);
}

function checked(nanos: bigint): CelDuration | CelError {
  return nanos < INT64_MIN || nanos > INT64_MAX ? intOverflow() : new CelDuration(nanos);
}

export function addDurations(a: CelDuration, b: CelDuration): CelDuration | CelError {
  return checked(a.nanos + b.nanos);
}

export function subtractDurations(a: CelDuration, b: CelDuration): CelDuration | CelError {
  return checked(a.nanos - b.nanos);
}

export function compareDurations(a: CelDuration, b: CelDuration): number {
  return a.nanos < b.nanos ? -1 : a.nanos > b.nanos ? 1 : 0;
}

/** `d.getHours()` and friends: the whole number of units, truncated toward zero (Go's int64(d.Hours())). */
export function durationHours(d: CelDuration): bigint {
  return BigInt(Math.trunc(toUnits(d.nanos, 3_600_000_000_000n)));
}

export function durationMinutes(d: CelDuration): bigint {
  return BigInt(Math.trunc(toUnits(d.nanos, 60_000_000_000n)));
}

export function durationSeconds(d: CelDuration): bigint {
  return BigInt(Math.trunc(toUnits(d.nanos, 1_000_000_000n)));
}

export function durationMilliseconds(d: CelDuration): bigint {
  return d.nanos / 1_000_000n;
}
