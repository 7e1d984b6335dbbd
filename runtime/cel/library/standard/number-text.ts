// Numbers as text, the way cel-go (Go's fmt and strconv) writes and reads them: `string(1.5e10)` is
// "1.5e+10" (Go's %g), durations print seconds with 'f' formatting, and `int('…')`, `uint('…')`,
// `double('…')`, `bool('…')` accept exactly what strconv.ParseInt/ParseUint/ParseFloat/ParseBool accept.
import { INT64_MAX, INT64_MIN, UINT64_MAX } from "../../common/values.js";

interface Digits {
  /** Shortest decimal digits that round-trip, without leading or trailing zeros. */
  readonly digits: string;
  /** Position of the decimal point relative to the digits (Go's decimal.dp). */
  readonly point: number;
}

function shortestDigits(magnitude: number): Digits {
  const text = magnitude.toExponential();
  const e = text.indexOf("e");
  return { digits: text.slice(0, e).replace(".", ""), point: Number(text.slice(e + 1)) + 1 };
}

/** Go's fmt %g (and %v) of a float64: shortest digits, exponent form below 1e-4 and from 1e6 on. */
export function formatDouble(x: number): string {
  if (Number.isNaN(x)) return "NaN";
  if (x === Number.POSITIVE_INFINITY) return "+Inf";
  if (x === Number.NEGATIVE_INFINITY) return "-Inf";
  const sign = x < 0 || Object.is(x, -0) ? "-" : "";
  if (x === 0) return `${sign}0`;
  const d = shortestDigits(Math.abs(x));
  const exp = d.point - 1;
  if (exp < -4 || exp >= 6) {
    const mantissa = d.digits.length > 1 ? `${d.digits[0]}.${d.digits.slice(1)}` : d.digits;
    const expDigits = String(Math.abs(exp)).padStart(2, "0");
    return `${sign}${mantissa}e${exp < 0 ? "-" : "+"}${expDigits}`;
  }
  return sign + fixedNotation(d);
}

/** Go's strconv.FormatFloat(x, 'f', -1, 64): shortest digits, never an exponent. */
export function formatFixed(x: number): string {
  if (!Number.isFinite(x)) return formatDouble(x);
  const sign = x < 0 || Object.is(x, -0) ? "-" : "";
  if (x === 0) return `${sign}0`;
  return sign + fixedNotation(shortestDigits(Math.abs(x)));
}

function fixedNotation({ digits, point }: Digits): string {
  const whole = point <= 0 ? "0" : digits.slice(0, point).padEnd(point, "0");
  const fractionLength = Math.max(digits.length - point, 0);
  if (fractionLength === 0) return whole;
  let fraction = "";
  for (let i = 0; i < fractionLength; i++) {
    const at = point + i;
    fraction += at < 0 ? "0" : (digits[at] ?? "0");
  }
  return `${whole}.${fraction}`;
}

const DECIMAL_INTEGER = /^[+-]?[0-9]+$/;
const UNSIGNED_INTEGER = /^[0-9]+$/;

/** strconv.ParseInt(s, 10, 64); undefined when s is not a base-10 int64. */
export function parseInt64(s: string): bigint | undefined {
  if (!DECIMAL_INTEGER.test(s)) return undefined;
  const n = BigInt(s);
  return n < INT64_MIN || n > INT64_MAX ? undefined : n;
}

/** strconv.ParseUint(s, 10, 64): no sign allowed. */
export function parseUint64(s: string): bigint | undefined {
  if (!UNSIGNED_INTEGER.test(s)) return undefined;
  const n = BigInt(s);
  return n > UINT64_MAX ? undefined : n;
}

// Go float literal syntax as strconv.ParseFloat reads it: underscores only between digits.
const DEC = "[0-9](?:_?[0-9])*";
const HEX = "[0-9a-fA-F](?:_?[0-9a-fA-F])*";
const DECIMAL_FLOAT = new RegExp(`^[+-]?(?:${DEC}(?:\\.(?:${DEC})?)?|\\.${DEC})(?:[eE][+-]?${DEC})?$`);
const HEX_FLOAT = new RegExp(`^([+-]?)0[xX]_?(${HEX})?(?:\\.(${HEX})?)?[pP]([+-]?${DEC})$`);
const INFINITY = /^([+-]?)(?:inf|infinity)$/i;

/** strconv.ParseFloat(s, 64); undefined for a syntax error or a value out of the double range. */
export function parseFloat64(s: string): number | undefined {
  if (DECIMAL_FLOAT.test(s)) {
    const x = Number(s.replaceAll("_", ""));
    return Number.isFinite(x) ? x : undefined;
  }
  const inf = INFINITY.exec(s);
  if (inf) return inf[1] === "-" ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  if (/^nan$/i.test(s)) return Number.NaN;
  return parseHexFloat(s);
}

function parseHexFloat(s: string): number | undefined {
  const m = HEX_FLOAT.exec(s);
  if (!m) return undefined;
  const whole = (m[2] ?? "").replaceAll("_", "");
  const fraction = (m[3] ?? "").replaceAll("_", "");
  if (whole === "" && fraction === "") return undefined;
  const mantissa = Number(BigInt(`0x${whole}${fraction}`));
  const exponent = Number((m[4] as string).replaceAll("_", "")) - 4 * fraction.length;
  // Two steps, so that a long mantissa with a very negative exponent does not underflow early.
  const half = Math.trunc(exponent / 2);
  const x = mantissa * 2 ** half * 2 ** (exponent - half);
  if (!Number.isFinite(x)) return undefined;
  return m[1] === "-" ? -x : x;
}

const TRUE_TEXT = new Set(["1", "t", "T", "TRUE", "true", "True"]);
const FALSE_TEXT = new Set(["0", "f", "F", "FALSE", "false", "False"]);

/** strconv.ParseBool. */
export function parseBool(s: string): boolean | undefined {
  if (TRUE_TEXT.has(s)) return true;
  if (FALSE_TEXT.has(s)) return false;
  return undefined;
}
