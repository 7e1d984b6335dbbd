// Go's time.Duration as text: ParseDuration's grammar and errors, and Duration.String()'s output, which is how
// kube prints every metav1.Duration (`5m0s`, `30s`, `1h0m0s`).
import { CelDuration } from "../cel/common/values.js";
import { parseDuration } from "../cel/library/standard/durations.js";
import { goQuote } from "../errors/go-format.js";

const units = new Set(["ns", "us", "\u00b5s", "\u03bcs", "ms", "s", "m", "h"]);

/** The error Go's time.ParseDuration gives for `text`, or undefined when it parses. */
export function goDurationError(text: string): string | undefined {
  if (parseDuration(text) instanceof CelDuration) return undefined;
  // Go names the first number without a unit or with an unknown one; every other failure is "invalid".
  let rest = text.replace(/^[-+]/, "");
  while (rest !== "") {
    const number = /^[0-9]*(?:\.[0-9]*)?/.exec(rest)?.[0] ?? "";
    if (number === "" || number === ".") break;
    rest = rest.slice(number.length);
    const unit = /^[^0-9.]*/.exec(rest)?.[0] ?? "";
    if (unit === "") return `time: missing unit in duration ${goQuote(text)}`;
    if (!units.has(unit)) return `time: unknown unit ${goQuote(unit)} in duration ${goQuote(text)}`;
    rest = rest.slice(unit.length);
  }
  return `time: invalid duration ${goQuote(text)}`;
}

/** Go's time.ParseDuration, in nanoseconds; throws its error text otherwise. */
export function parseGoDuration(text: string): bigint {
  const parsed = parseDuration(text);
  if (!(parsed instanceof CelDuration)) throw new Error(goDurationError(text));
  return parsed.nanos;
}

function trimFraction(digits: string): string {
  return digits.replace(/\.?0+$/, "");
}

/** Go's Duration.String(): `5m0s`, `30s`, `1h0m0s`, `1.5ms`, `0s`. */
export function formatGoDuration(nanos: bigint): string {
  if (nanos === 0n) return "0s";
  const sign = nanos < 0n ? "-" : "";
  const n = nanos < 0n ? -nanos : nanos;
  if (n < 1_000_000_000n) {
    const [unit, size] = n < 1_000n ? ["ns", 1n] : n < 1_000_000n ? ["µs", 1_000n] : ["ms", 1_000_000n];
    const whole = n / size;
    const frac = (n % size).toString().padStart(size.toString().length - 1, "0");
    return `${sign}${trimFraction(`${whole}.${frac}`)}${unit}`;
  }
  const hours = n / 3_600_000_000_000n;
  const minutes = (n / 60_000_000_000n) % 60n;
  const seconds = n % 60_000_000_000n;
  const s = trimFraction(`${seconds / 1_000_000_000n}.${(seconds % 1_000_000_000n).toString().padStart(9, "0")}`);
  if (hours > 0n) return `${sign}${hours}h${minutes}m${s}s`;
  if (minutes > 0n) return `${sign}${minutes}m${s}s`;
  return `${sign}${s}s`;
}
