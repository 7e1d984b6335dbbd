// resource.Quantity as quota and LimitRanger compute with it: the exact value (ParseQuantity's), the format
// its suffix chose (it decides how a sum prints), Add and Sub as Go keeps the format, RoundUp, Value() and
// MilliValue() (rounded away from zero), and Go's canonical String(), the text quota status, every copied
// default and kube's refusal messages carry.
import {
  type Quantity as Amount,
  addQuantities,
  compareQuantities,
  parseQuantity,
  subtractQuantities,
} from "../cel/library/kubernetes/resource-quantity.js";

export type QuantityFormat = "DecimalSI" | "BinarySI" | "DecimalExponent";

export interface Quantity {
  readonly amount: Amount;
  readonly format: QuantityFormat;
}

/** resource.MaxMilliValue: the largest value whose milli-units fit int64. */
export const maxMilliValue = 9223372036854775n;

const binarySuffixes = new Set(["Ki", "Mi", "Gi", "Ti", "Pi", "Ei"]);
const decimalSuffixByExponent = new Map<number, string>([
  [-9, "n"],
  [-6, "u"],
  [-3, "m"],
  [0, ""],
  [3, "k"],
  [6, "M"],
  [9, "G"],
  [12, "T"],
  [15, "P"],
  [18, "E"],
]);
const binarySuffixByPower = ["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"];
const kibi: Amount = { unscaled: 1024n, exponent: 0, decimal: false };

export const zeroQuantity: Quantity = { amount: { unscaled: 0n, exponent: 0, decimal: false }, format: "DecimalSI" };

/** resource.NewQuantity(n, DecimalSI). */
export function countQuantity(n: number | bigint): Quantity {
  return { amount: { unscaled: BigInt(n), exponent: 0, decimal: false }, format: "DecimalSI" };
}

function formatOf(text: string): QuantityFormat {
  const suffix = text.replace(/^[+-]?[0-9.]*/, "");
  if (binarySuffixes.has(suffix)) return "BinarySI";
  if (suffix.length > 1 && (suffix[0] === "e" || suffix[0] === "E")) return "DecimalExponent";
  return "DecimalSI";
}

/**
 * The quantity a JSON value holds (a string, or a number's literal), trimmed as Quantity's UnmarshalJSON
 * trims it; undefined when it does not parse.
 */
export function readQuantity(value: unknown): Quantity | undefined {
  if (typeof value !== "string" && typeof value !== "number") return undefined;
  const text = String(value).trim();
  const parsed = parseQuantity(text);
  if (!parsed.ok) return undefined;
  return { amount: parsed.value, format: formatOf(text) };
}

/** A ResourceList value as kube's conversion of a v1 ResourceList leaves it: rounded up to milli-units. */
export function readMilliQuantity(value: unknown): Quantity | undefined {
  const q = readQuantity(value);
  return q === undefined ? undefined : roundUp(q, -3);
}

/** Quantity.Cmp. */
export function compareQuantity(a: Quantity, b: Quantity): number {
  return compareQuantities(a.amount, b.amount);
}

/** Quantity.Add: the sum keeps the receiver's format unless the receiver is zero. */
export function addQuantity(a: Quantity, b: Quantity): Quantity {
  return { amount: addQuantities(a.amount, b.amount), format: a.amount.unscaled === 0n ? b.format : a.format };
}

/** Quantity.Sub: the format kept as Add keeps it. */
export function subtractQuantity(a: Quantity, b: Quantity): Quantity {
  return { amount: subtractQuantities(a.amount, b.amount), format: a.amount.unscaled === 0n ? b.format : a.format };
}

/** value × 10^scale rounded away from zero to an integer (Quantity.ScaledValue of -scale). */
function scaled(q: Amount, scale: number): bigint {
  const exponent = q.exponent + scale;
  if (exponent >= 0) return q.unscaled * 10n ** BigInt(exponent);
  const divisor = 10n ** BigInt(-exponent);
  const quotient = q.unscaled / divisor;
  if (quotient * divisor === q.unscaled) return quotient;
  return q.unscaled < 0n ? quotient - 1n : quotient + 1n;
}

/** Quantity.RoundUp(exponent): the value rounded away from zero to a multiple of 10^exponent. */
export function roundUp(q: Quantity, exponent: number): Quantity {
  const { amount } = q;
  if (amount.exponent >= exponent) return q;
  return { amount: { unscaled: scaled(amount, -exponent), exponent, decimal: amount.decimal }, format: q.format };
}

/** Quantity.Value. */
export function wholeValue(q: Quantity): bigint {
  return scaled(q.amount, 0);
}

/** Quantity.MilliValue. */
export function milliValue(q: Quantity): bigint {
  return scaled(q.amount, 3);
}

function decimalText(q: Amount, format: QuantityFormat): string {
  let mantissa = q.unscaled;
  let exponent = q.exponent;
  while (mantissa % 10n === 0n) {
    mantissa /= 10n;
    exponent++;
  }
  const remainder = ((exponent % 3) + 3) % 3;
  mantissa *= 10n ** BigInt(remainder);
  exponent -= remainder;
  if (format === "DecimalExponent") return exponent === 0 ? `${mantissa}` : `${mantissa}e${exponent}`;
  // An exponent beyond the SI suffixes gets no suffix at all, as Go's String() prints it ("1000E" is "1").
  return `${mantissa}${decimalSuffixByExponent.get(exponent) ?? ""}`;
}

/** Quantity.String: the canonical text (CanonicalizeBytes). */
export function formatQuantity(q: Quantity): string {
  const { amount } = q;
  if (amount.unscaled === 0n) return "0";
  if (q.format !== "BinarySI") return decimalText(amount, q.format);
  const magnitude = amount.unscaled < 0n ? -amount.unscaled : amount.unscaled;
  const small = compareQuantities({ unscaled: magnitude, exponent: amount.exponent, decimal: false }, kibi) < 0;
  const whole = scaled(amount, 0);
  if (small || compareQuantities({ unscaled: whole, exponent: 0, decimal: false }, amount) !== 0) {
    return decimalText(amount, "DecimalSI");
  }
  let mantissa = whole;
  let power = 0;
  while (mantissa % 1024n === 0n && power < binarySuffixByPower.length - 1) {
    mantissa /= 1024n;
    power++;
  }
  return `${mantissa}${binarySuffixByPower[power]}`;
}
