// The arithmetic of apimachinery's resource.Quantity as Kubernetes' CEL quantity library uses it: exact
// parsing (ParseQuantity), comparison, addition and subtraction, and the int64/float views. A Quantity is
// either a small "int64Amount" (value × 10^scale fitting int64) or an arbitrary-precision decimal, and
// which one matters: Go's AsInt64 answers only for the int64 form, so `quantity("1.5Ki").isInteger()` is
// false although the value is 1536. Both forms are kept here exactly as Go builds them.
import { INT64_MAX, INT64_MIN } from "../../common/values.js";
import type { Parsed } from "./parsed.js";

/** A quantity's value: unscaled × 10^exponent; `decimal` marks Go's inf.Dec form. */
export interface Quantity {
  readonly unscaled: bigint;
  readonly exponent: number;
  readonly decimal: boolean;
}

export const quantityFormatError =
  "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
const numericError = "unable to parse numeric part of quantity";
const suffixError = "unable to parse quantity's suffix";

/** Shifts beyond this many decimal digits are refused rather than computed (Go would allocate without bound). */
const MAX_SHIFT_DIGITS = 10_000;

export class QuantityRangeError extends Error {
  constructor() {
    super("quantity is too large to compute exactly");
  }
}

const NANO = -9;
const MAX_INT64_FACTORS = 18;

function fitsInt64(v: bigint): boolean {
  return v >= INT64_MIN && v <= INT64_MAX;
}

function pow10(n: number): bigint {
  if (n > MAX_SHIFT_DIGITS) throw new QuantityRangeError();
  return 10n ** BigInt(n);
}

interface Suffix {
  readonly base: 2 | 10;
  readonly exponent: number;
  readonly format: "DecimalSI" | "BinarySI" | "DecimalExponent";
}

const decimalSuffixes: Record<string, number> = { "": 0, n: -9, u: -6, m: -3, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const binarySuffixes: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };

/** Go's quantitySuffixer.interpret. */
function interpretSuffix(suffix: string): Suffix | undefined {
  const decimal = decimalSuffixes[suffix];
  if (decimal !== undefined) return { base: 10, exponent: decimal, format: "DecimalSI" };
  const binary = binarySuffixes[suffix];
  if (binary !== undefined) return { base: 2, exponent: binary, format: "BinarySI" };
  if (suffix.length > 1 && (suffix[0] === "e" || suffix[0] === "E")) {
    const digits = suffix.slice(1);
    if (!/^[+-]?[0-9]+$/.test(digits)) return undefined;
    const parsed = BigInt(digits);
    if (!fitsInt64(parsed)) return undefined;
    return { base: 10, exponent: Number(BigInt.asIntN(32, parsed)), format: "DecimalExponent" };
  }
  return undefined;
}

interface QuantityParts {
  readonly positive: boolean;
  /** The sign and number as written, for the arbitrary-precision path. */
  readonly value: string;
  readonly num: string;
  readonly denom: string;
  readonly suffix: string;
}

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= "0" && c <= "9";
}

/** Go's parseQuantityString: sign, numerator (leading zeros dropped), fraction and suffix. */
function splitQuantity(str: string): QuantityParts | undefined {
  let positive = true;
  let pos = 0;
  const end = str.length;
  if (str[0] === "-") {
    positive = false;
    pos++;
  } else if (str[0] === "+") {
    pos++;
  }
  while (str[pos] === "0") pos++;
  if (pos >= end) return { positive, value: "0", num: "0", denom: "", suffix: "" };
  const numStart = pos;
  while (isDigit(str[pos])) pos++;
  if (pos >= end) return { positive, value: str, num: str.slice(numStart), denom: "", suffix: "" };
  const num = str.slice(numStart, pos) || "0";
  let denom = "";
  if (str[pos] === ".") {
    pos++;
    const denomStart = pos;
    while (isDigit(str[pos])) pos++;
    denom = str.slice(denomStart, pos);
    if (pos >= end) return { positive, value: str, num, denom, suffix: "" };
  }
  const value = str.slice(0, pos);
  const suffixStart = pos;
  while (pos < end && "eEinumkKMGTP".includes(str[pos] as string)) pos++;
  if (pos >= end) return { positive, value, num, denom, suffix: str.slice(suffixStart) };
  if (str[pos] === "-" || str[pos] === "+") pos++;
  while (isDigit(str[pos])) pos++;
  if (pos < end) return undefined;
  return { positive, value, num, denom, suffix: str.slice(suffixStart) };
}

/** The digits of a decimal written as `[+-]digits[.digits]` (inf.Dec's SetString), or undefined without any digit. */
function decimalOf(value: string): { unscaled: bigint; exponent: number } | undefined {
  const m = /^([+-]?)([0-9]*)(?:\.([0-9]*))?$/.exec(value);
  if (!m || `${m[2]}${m[3] ?? ""}` === "") return undefined;
  const fraction = m[3] ?? "";
  const digits = BigInt(`${m[2]}${fraction}` || "0");
  return { unscaled: m[1] === "-" ? -digits : digits, exponent: -fraction.length };
}

/** Go's resource.ParseQuantity: the value (rounded up to nano units, BinarySI capped at 2^63-1) or its error. */
export function parseQuantity(str: string): Parsed<Quantity> {
  if (str.length === 0) return { ok: false, error: quantityFormatError };
  if (str === "0") return { ok: true, value: { unscaled: 0n, exponent: 0, decimal: false } };
  const parts = splitQuantity(str);
  if (parts === undefined) return { ok: false, error: quantityFormatError };
  const suffix = interpretSuffix(parts.suffix);
  if (suffix === undefined) return { ok: false, error: suffixError };
  const fast = int64Form(parts, suffix);
  if (fast !== undefined) return { ok: true, value: fast };
  const decimal = decimalOf(parts.value);
  if (decimal === undefined) return { ok: false, error: numericError };
  try {
    return { ok: true, value: decimalForm(decimal, suffix) };
  } catch (e) {
    if (e instanceof QuantityRangeError) return { ok: false, error: numericError };
    throw e;
  }
}

/** ParseQuantity's fast path: the int64Amount Go builds when the digits and the scale allow it. */
function int64Form(parts: QuantityParts, suffix: Suffix): Quantity | undefined {
  let precision: number;
  let scale = 0;
  let mantissa = 1n;
  if (suffix.format === "BinarySI") {
    if (suffix.exponent < 0 || parts.denom.length !== 0) return undefined;
    mantissa = 1n << BigInt(suffix.exponent);
    precision = 15 - parts.num.length - Math.trunc(Math.fround((suffix.exponent * 3) / 10)) - 1;
  } else {
    scale = suffix.exponent;
    precision = MAX_INT64_FACTORS - (parts.num.length + parts.denom.length);
  }
  if (precision < 0) return undefined;
  scale -= parts.denom.length;
  if (scale < NANO) return undefined;
  const shifted = BigInt(parts.num + parts.denom);
  if (!fitsInt64(shifted)) return undefined;
  const result = shifted * mantissa;
  if (!fitsInt64(result)) return undefined;
  return { unscaled: parts.positive ? result : -result, exponent: scale, decimal: false };
}

/** ParseQuantity's slow path: an inf.Dec, rounded up (away from zero) to nano units, BinarySI capped. */
function decimalForm(d: { unscaled: bigint; exponent: number }, suffix: Suffix): Quantity {
  let unscaled = d.unscaled;
  let exponent = d.exponent;
  if (suffix.base === 10) exponent += suffix.exponent;
  else unscaled *= 1n << BigInt(suffix.exponent);
  const negative = unscaled < 0n;
  if (negative) unscaled = -unscaled;
  if (unscaled !== 0n) {
    if (exponent < NANO) {
      const drop = NANO - exponent;
      const divisor = drop > digitCount(unscaled) ? undefined : pow10(drop);
      unscaled = divisor === undefined ? 1n : (unscaled + divisor - 1n) / divisor;
    } else {
      unscaled *= pow10(exponent - NANO);
    }
    exponent = NANO;
  }
  if (suffix.format === "BinarySI" && compareMagnitudes(unscaled, exponent, INT64_MAX, 0) > 0) {
    unscaled = INT64_MAX;
    exponent = 0;
  }
  return { unscaled: negative ? -unscaled : unscaled, exponent, decimal: true };
}

function digitCount(v: bigint): number {
  return (v < 0n ? -v : v).toString().length;
}

/** Compares two non-negative decimals without materializing huge shifts. */
function compareMagnitudes(a: bigint, ae: number, b: bigint, be: number): number {
  if (a === 0n || b === 0n) return a === b ? 0 : a === 0n ? -1 : 1;
  const aTop = digitCount(a) + ae;
  const bTop = digitCount(b) + be;
  if (aTop !== bTop) return aTop < bTop ? -1 : 1;
  const common = Math.min(ae, be);
  const x = a * 10n ** BigInt(ae - common);
  const y = b * 10n ** BigInt(be - common);
  return x < y ? -1 : x > y ? 1 : 0;
}

export function quantitySign(q: Quantity): number {
  return q.unscaled > 0n ? 1 : q.unscaled < 0n ? -1 : 0;
}

/** Go's Quantity.Cmp: -1, 0 or 1 by value. */
export function compareQuantities(a: Quantity, b: Quantity): number {
  const sa = quantitySign(a);
  const sb = quantitySign(b);
  if (sa !== sb) return sa < sb ? -1 : 1;
  if (sa === 0) return 0;
  const magnitude = compareMagnitudes(
    a.unscaled < 0n ? -a.unscaled : a.unscaled,
    a.exponent,
    b.unscaled < 0n ? -b.unscaled : b.unscaled,
    b.exponent,
  );
  return sa < 0 ? -magnitude : magnitude;
}

/** Go's positiveScaleInt64: value × 10^scale when it fits int64. */
function scaleUpInt64(value: bigint, scale: number): bigint | undefined {
  if (value === 0n) return 0n;
  if (scale > 19) return undefined;
  const scaled = value * 10n ** BigInt(scale);
  return fitsInt64(scaled) ? scaled : undefined;
}

/** Go's int64Amount.Add: exact when the aligned sum fits int64, else undefined. */
function addInt64Amounts(a: Quantity, b: Quantity): Quantity | undefined {
  if (b.unscaled === 0n) return a;
  if (a.unscaled === 0n) return b;
  let sum: bigint | undefined;
  let exponent = a.exponent;
  if (a.exponent === b.exponent) {
    sum = a.unscaled + b.unscaled;
  } else if (a.exponent > b.exponent) {
    const aligned = scaleUpInt64(a.unscaled, a.exponent - b.exponent);
    sum = aligned === undefined ? undefined : aligned + b.unscaled;
    exponent = b.exponent;
  } else {
    const aligned = scaleUpInt64(b.unscaled, b.exponent - a.exponent);
    sum = aligned === undefined ? undefined : a.unscaled + aligned;
  }
  return sum !== undefined && fitsInt64(sum) ? { unscaled: sum, exponent, decimal: false } : undefined;
}

/** inf.Dec addition: aligned to the finer of the two scales. */
function addDecimals(a: Quantity, b: Quantity): Quantity {
  const exponent = Math.min(a.exponent, b.exponent);
  const x = a.unscaled * pow10(a.exponent - exponent);
  const y = b.unscaled * pow10(b.exponent - exponent);
  return { unscaled: x + y, exponent, decimal: true };
}

/** Go's Quantity.Add. Throws QuantityRangeError when the exact sum would need an unbounded number of digits. */
export function addQuantities(a: Quantity, b: Quantity): Quantity {
  if (!a.decimal && !b.decimal) {
    const sum = addInt64Amounts(a, b);
    if (sum !== undefined) return sum;
  }
  return addDecimals(a, b);
}

function negate(q: Quantity): Quantity {
  return { ...q, unscaled: -q.unscaled };
}

/** Go's Quantity.Sub. */
export function subtractQuantities(a: Quantity, b: Quantity): Quantity {
  if (!a.decimal && !b.decimal) {
    const negated = { ...b, unscaled: BigInt.asIntN(64, -b.unscaled) };
    const difference = addInt64Amounts(a, negated);
    if (difference !== undefined) return difference;
  }
  return addDecimals(a, negate(b));
}

/** A quantity from an int64 (resource.NewQuantity(n, DecimalExponent)). */
export function quantityFromInt(n: bigint): Quantity {
  return { unscaled: n, exponent: 0, decimal: false };
}

/** Go's Quantity.AsInt64: the value when the quantity is an int64Amount with a non-negative scale that fits. */
export function quantityAsInt64(q: Quantity): bigint | undefined {
  if (q.decimal || q.exponent < 0) return undefined;
  return q.exponent === 0 ? q.unscaled : scaleUpInt64(q.unscaled, q.exponent);
}

const pow10Small = Array.from({ length: 32 }, (_, i) => Number(`1e${i}`));
const pow10Big = Array.from({ length: 10 }, (_, i) => Number(`1e${32 * i}`));
const pow10BigNegative = Array.from({ length: 11 }, (_, i) => Number(`1e-${32 * i}`));

/** Go's math.Pow10, including its table-product rounding. */
function goPow10(n: number): number {
  if (n >= 0 && n <= 308) return (pow10Big[Math.floor(n / 32)] as number) * (pow10Small[n % 32] as number);
  if (n < 0 && n >= -323) return (pow10BigNegative[Math.floor(-n / 32)] as number) / (pow10Small[-n % 32] as number);
  return n > 0 ? Number.POSITIVE_INFINITY : 0;
}

/** Go's Quantity.AsApproximateFloat64: float(unscaled) × 10^exponent. */
export function quantityAsFloat(q: Quantity): number {
  const base = Number(q.unscaled);
  return q.exponent === 0 ? base : base * goPow10(q.exponent);
}
