// Small rules kube-apiserver's hand-written validation shares across kinds (apimachinery's
// ValidateImmutableField, ValidateNonnegativeField, IsValidPortNum, IsValidPortName, IsValidPercent,
// IsValidIP), with their messages, and Go's semantic equality that reads null or an empty list as unset.
import { isIP } from "node:net";
import { isDeepStrictEqual } from "node:util";
import { type FieldError, invalid } from "../errors/field-error.js";

export const fieldImmutable = "field is immutable";
export const isNegative = "must be greater than or equal to 0";
export const maxInt32 = 2 ** 31 - 1;

function unset(value: unknown): boolean {
  return value === undefined || value === null || (Array.isArray(value) && value.length === 0);
}

function normalized(value: unknown): unknown {
  if (unset(value)) return undefined;
  if (Array.isArray(value)) return value.map(normalized);
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (!unset(v)) out[k] = normalized(v);
  return out;
}

/** apiequality.Semantic.DeepEqual on decoded JSON: a null or empty list is the same as no value. */
export function semanticEqual(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(normalized(a), normalized(b));
}

/** ValidateImmutableField: the new value is printed, as kube prints it. */
export function immutableField(newValue: unknown, oldValue: unknown, path: string): FieldError[] {
  return semanticEqual(newValue, oldValue) ? [] : [invalid(path, newValue ?? null, fieldImmutable)];
}

/** ValidateNonnegativeField; values that are not numbers are the schema validators' to report. */
export function nonNegative(value: unknown, path: string): FieldError[] {
  return typeof value === "number" && value < 0 ? [invalid(path, value, isNegative)] : [];
}

export function inclusiveRangeError(lo: number, hi: number): string {
  return `must be between ${lo} and ${hi}, inclusive`;
}

export function portNumberErrors(port: number): string[] {
  return port >= 1 && port <= 65535 ? [] : [inclusiveRangeError(1, 65535)];
}

/** IsValidPortName: an IANA service name. */
export function portNameErrors(name: string): string[] {
  const errs: string[] = [];
  if (name.length > 15) errs.push("must be no more than 15 characters");
  if (!/^[-a-z0-9]+$/.test(name)) errs.push("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
  else if (!/[a-z]/.test(name)) errs.push("must contain at least one letter (a-z)");
  if (name.includes("--")) errs.push("must not contain consecutive hyphens");
  if (name.startsWith("-") || name.endsWith("-")) errs.push("must not begin or end with a hyphen");
  return errs;
}

/** ValidatePortNumOrName: an IntOrString naming a port by number or by name. */
export function portNumOrNameErrors(port: unknown, path: string): FieldError[] {
  if (typeof port === "number") return portNumberErrors(port).map((msg) => invalid(path, port, msg));
  if (typeof port === "string") return portNameErrors(port).map((msg) => invalid(path, port, msg));
  return [];
}

const percent = /^[0-9]+%$/;

/** A percentage string ("25%") as its number, or undefined when not one. */
export function percentValue(value: unknown): number | undefined {
  return typeof value === "string" && percent.test(value) ? Number(value.slice(0, -1)) : undefined;
}

/** ValidatePositiveIntOrPercent: a non-negative integer or a percentage string. */
export function intOrPercentErrors(value: unknown, path: string): FieldError[] {
  if (typeof value === "string" && percentValue(value) === undefined) {
    const detail =
      "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";
    return [invalid(path, value, detail)];
  }
  return nonNegative(value, path);
}

/** IsNotMoreThan100Percent. */
export function notOver100Percent(value: unknown, path: string): FieldError[] {
  const p = percentValue(value);
  return p !== undefined && p > 100 ? [invalid(path, value, "must not be greater than 100%")] : [];
}

/** The integer or percentage a rollout field holds; anything else counts as 0, as IntValue() does. */
export function intOrPercentValue(value: unknown): number {
  if (typeof value === "number") return value;
  return percentValue(value) ?? 0;
}

/** IsValidIP. */
export function ipErrors(value: string, path: string): FieldError[] {
  return isIP(value) === 0
    ? [invalid(path, value, "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)")]
    : [];
}
