// Go's text for the values go-yaml decodes, as kube's YAML errors print them: strconv.FormatFloat with
// 'g' and the shortest precision (the form sigs.k8s.io/yaml gives float map keys, at 32 bits), and fmt's
// %#v (`"name"`, `1.5`, `map[interface {}]interface {}{"a":1}`).
import { goQuote } from "../../errors/go-format.js";
import type { GoScalar } from "./yaml-resolve.js";

/** The shortest decimal digits of `x` that read back as the same value at `bits`, and its exponent. */
function shortestDigits(x: number, bits: 32 | 64): { digits: string; exponent: number } {
  let text = x.toExponential();
  if (bits === 32) {
    const single = Math.fround(x);
    for (let precision = 1; precision <= 9; precision++) {
      const candidate = single.toExponential(precision - 1);
      if (Math.fround(Number(candidate)) === single) {
        text = candidate;
        break;
      }
    }
  }
  const [mantissa = "0", exponent = "0"] = text.split("e");
  return { digits: mantissa.replace(/^-/, "").replace(".", ""), exponent: Number(exponent) };
}

/** strconv.FormatFloat(x, 'g', -1, bits): the exponent form below 1e-4 and from 1e6 up. */
export function goFormatFloat(x: number, bits: 32 | 64): string {
  if (Number.isNaN(x)) return "NaN";
  if (!Number.isFinite(x)) return x > 0 ? "+Inf" : "-Inf";
  const sign = x < 0 || Object.is(x, -0) ? "-" : "";
  if (x === 0) return `${sign}0`;
  const { digits, exponent } = shortestDigits(Math.abs(x), bits);
  if (exponent < -4 || exponent >= 6) {
    const mantissa = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const magnitude = String(Math.abs(exponent)).padStart(2, "0");
    return `${sign}${mantissa}e${exponent < 0 ? "-" : "+"}${magnitude}`;
  }
  if (exponent < 0) return `${sign}0.${"0".repeat(-exponent - 1)}${digits}`;
  const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, "0");
  const fraction = digits.slice(exponent + 1);
  return `${sign}${whole}${fraction === "" ? "" : `.${fraction}`}`;
}

/** %#v of a decoded scalar. */
export function goScalarText(scalar: GoScalar): string {
  switch (scalar.type) {
    case "null":
      return "<nil>";
    case "string":
      return goQuote(scalar.value);
    case "float":
      return goFormatFloat(scalar.value, 64);
    case "uint":
      return `0x${scalar.value.toString(16)}`;
    default:
      return String(scalar.value);
  }
}

interface Open {
  entries: [string | undefined, unknown][];
  next: number;
}

/**
 * %#v of a decoded value held in an interface{}, as the error for an unusable map key prints it: numbers as
 * go-yaml made them (ints where whole). Built with a stack of its own, since the value may be nested deep.
 */
export function goValueText(value: unknown): string {
  const out: string[] = [];
  const open: Open[] = [];
  let current: unknown = value;
  let nested = false;
  for (;;) {
    if (current === null) out.push(nested ? "interface {}(nil)" : "<nil>");
    else if (typeof current === "string") out.push(goQuote(current));
    else if (typeof current === "number")
      out.push(Number.isInteger(current) ? String(current) : goFormatFloat(current, 64));
    else if (typeof current !== "object") out.push(String(current));
    else if (Array.isArray(current)) {
      out.push("[]interface {}{");
      open.push({ entries: current.map((v) => [undefined, v]), next: 0 });
    } else {
      out.push("map[interface {}]interface {}{");
      open.push({ entries: Object.entries(current as Record<string, unknown>), next: 0 });
    }
    nested = true;
    let top = open.at(-1);
    while (top !== undefined && top.next === top.entries.length) {
      out.push("}");
      open.pop();
      top = open.at(-1);
    }
    if (top === undefined) return out.join("");
    const [key, item] = top.entries[top.next] as [string | undefined, unknown];
    if (top.next > 0) out.push(", ");
    if (key !== undefined) out.push(`${goQuote(key)}:`);
    top.next++;
    current = item;
  }
}
