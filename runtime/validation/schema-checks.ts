// The structural checks generated validators call, one per schema keyword. Wording follows
// kube-apiserver's schema validation (kube-openapi messages wrapped into field errors as the
// apiextensions server does), e.g. `spec.replicas: Invalid value: "string": spec.replicas in body must
// be of type integer: "string"`. Absent and null values are skipped: null reads as "not set", as it
// does when kube decodes into Go types.
import {
  duplicate,
  type FieldError,
  invalid,
  notSupported,
  required as requiredError,
  tooLong,
  tooMany,
  typeInvalid,
} from "../errors/field-error.js";
import { child, index, key } from "../errors/field-path.js";
import { goJson, goNumber, goQuote } from "../errors/go-format.js";
import { integerFormatOk, stringFormatOk } from "./formats.js";
import { compilePattern } from "./pattern.js";
import type { JsonObject } from "./walk.js";

export type Check = (value: unknown, path: string, errs: FieldError[]) => void;

export type JsonType = "object" | "array" | "string" | "integer" | "number" | "boolean";

export interface StringRules {
  enum?: readonly unknown[];
  format?: string;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
}

export interface NumberRules {
  enum?: readonly unknown[];
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
}

export interface ListRules {
  minItems?: number;
  maxItems?: number;
  listType?: "set" | "map";
  /** x-kubernetes-list-map-keys; an absent key takes its schema default from keyDefaults. */
  mapKeys?: readonly string[];
  keyDefaults?: Readonly<Record<string, unknown>>;
}

export interface MapRules {
  minProperties?: number;
  maxProperties?: number;
}

function absent(value: unknown): value is undefined | null {
  return value === undefined || value === null;
}

/** The JSON type of a decoded value as kube-openapi names it. */
export function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function typeMismatch(path: string, expected: string, value: unknown, errs: FieldError[]): void {
  const actual = jsonType(value);
  errs.push(typeInvalid(path, actual, `${path} in body must be of type ${expected}: ${goQuote(actual)}`));
}

/** A format violation reads like a type error naming the format; the value is quoted only when a string. */
function formatMismatch(path: string, format: string, value: unknown, errs: FieldError[]): void {
  const data = typeof value === "string" ? `: ${goQuote(value)}` : "";
  errs.push(typeInvalid(path, value, `${path} in body must be of type ${format}${data}`));
}

function checkEnum(value: unknown, path: string, allowed: readonly unknown[] | undefined, errs: FieldError[]): void {
  if (allowed === undefined) return;
  const v = goJson(value);
  if (!allowed.some((a) => goJson(a) === v)) errs.push(notSupported(path, value, allowed));
}

/** A schema pattern that does not compile matches nothing (the generator's schemas carry none). */
function matches(pattern: string, value: string): boolean {
  const re = compilePattern(pattern);
  return typeof re !== "string" && re.test(value);
}

/** Returns the object to descend into, or undefined when absent or not an object (reported). */
export function object(value: unknown, path: string, errs: FieldError[]): JsonObject | undefined {
  if (absent(value)) return undefined;
  if (typeof value !== "object" || Array.isArray(value)) {
    typeMismatch(path, "object", value, errs);
    return undefined;
  }
  return value as JsonObject;
}

export function required(obj: JsonObject, path: string, errs: FieldError[], names: readonly string[]): void {
  for (const name of names) if (absent(obj[name])) errs.push(requiredError(child(path, name)));
}

export function string(value: unknown, path: string, errs: FieldError[], rules?: StringRules): void {
  if (absent(value)) return;
  if (typeof value !== "string") {
    typeMismatch(path, "string", value, errs);
    return;
  }
  if (rules === undefined) return;
  checkString(value, path, errs, rules);
}

function checkString(value: string, path: string, errs: FieldError[], rules: StringRules): void {
  if (rules.format !== undefined && !stringFormatOk(rules.format, value))
    formatMismatch(path, rules.format, value, errs);
  const length = rules.minLength !== undefined || rules.maxLength !== undefined ? [...value].length : 0;
  if (rules.maxLength !== undefined && length > rules.maxLength) errs.push(tooLong(path, rules.maxLength));
  if (rules.minLength !== undefined && length < rules.minLength) {
    errs.push(invalid(path, value, `${path} in body should be at least ${rules.minLength} chars long`));
  }
  if (rules.pattern !== undefined && !matches(rules.pattern, value)) {
    errs.push(invalid(path, value, `${path} in body should match '${rules.pattern}'`));
  }
  checkEnum(value, path, rules.enum, errs);
}

export function integer(value: unknown, path: string, errs: FieldError[], rules?: NumberRules): void {
  if (absent(value)) return;
  if (typeof value !== "number" || !Number.isInteger(value)) {
    typeMismatch(path, "integer", value, errs);
    return;
  }
  if (rules === undefined) return;
  if (rules.format !== undefined && !integerFormatOk(rules.format, value))
    formatMismatch(path, rules.format, value, errs);
  checkNumber(value, path, errs, rules);
}

export function number(value: unknown, path: string, errs: FieldError[], rules?: NumberRules): void {
  if (absent(value)) return;
  if (typeof value !== "number") {
    typeMismatch(path, "number", value, errs);
    return;
  }
  if (rules === undefined) return;
  checkNumber(value, path, errs, rules);
}

function checkNumber(value: number, path: string, errs: FieldError[], rules: NumberRules): void {
  const { minimum, maximum } = rules;
  if (minimum !== undefined) {
    if (rules.exclusiveMinimum === true && value <= minimum) {
      errs.push(invalid(path, value, `${path} in body should be greater than ${goNumber(minimum)}`));
    } else if (value < minimum) {
      errs.push(invalid(path, value, `${path} in body should be greater than or equal to ${goNumber(minimum)}`));
    }
  }
  if (maximum !== undefined) {
    if (rules.exclusiveMaximum === true && value >= maximum) {
      errs.push(invalid(path, value, `${path} in body should be less than ${goNumber(maximum)}`));
    } else if (value > maximum) {
      errs.push(invalid(path, value, `${path} in body should be less than or equal to ${goNumber(maximum)}`));
    }
  }
  checkEnum(value, path, rules.enum, errs);
}

export function boolean(value: unknown, path: string, errs: FieldError[], rules?: { enum?: readonly unknown[] }): void {
  if (absent(value)) return;
  if (typeof value !== "boolean") {
    typeMismatch(path, "boolean", value, errs);
    return;
  }
  checkEnum(value, path, rules?.enum, errs);
}

/** A value of one of several scalar types (IntOrString, Quantity); the type list is printed joined by commas. */
export function oneOfTypes(
  value: unknown,
  path: string,
  errs: FieldError[],
  types: readonly JsonType[],
  rules?: StringRules & NumberRules,
): void {
  if (absent(value)) return;
  const actual = jsonType(value);
  const ok = types.some((t) => t === actual || (t === "number" && actual === "integer"));
  if (!ok) {
    typeMismatch(path, types.join(","), value, errs);
    return;
  }
  if (rules === undefined) return;
  if (typeof value === "string") checkString(value, path, errs, rules);
  else if (typeof value === "number") checkNumber(value, path, errs, rules);
}

export function list(value: unknown, path: string, errs: FieldError[], item?: Check, rules?: ListRules): void {
  if (absent(value)) return;
  if (!Array.isArray(value)) {
    typeMismatch(path, "array", value, errs);
    return;
  }
  if (rules?.maxItems !== undefined && value.length > rules.maxItems) {
    errs.push(tooMany(path, value.length, rules.maxItems));
  }
  if (rules?.minItems !== undefined && value.length < rules.minItems) {
    errs.push(invalid(path, value.length, `${path} in body should have at least ${rules.minItems} items`));
  }
  if (item !== undefined) {
    for (const [i, v] of value.entries()) item(v, index(path, i), errs);
  }
  if (rules?.listType === "set") uniqueItems(value, path, errs);
  else if (rules?.listType === "map" && rules.mapKeys !== undefined) {
    uniqueKeys(value, path, errs, rules.mapKeys, rules.keyDefaults ?? {});
  }
}

function uniqueItems(items: readonly unknown[], path: string, errs: FieldError[]): void {
  const seen = new Set<string>();
  items.forEach((v, i) => {
    const k = goJson(v);
    if (seen.has(k)) errs.push(duplicate(index(path, i), v));
    seen.add(k);
  });
}

/**
 * List-map keys must be unique. With one key the error names the key field and its value, as kube's
 * own validation does (`spec.containers[1].name: Duplicate value: "a"`); with several it names the
 * item and prints the key tuple as an object, as the apiextensions server does.
 */
function uniqueKeys(
  items: readonly unknown[],
  path: string,
  errs: FieldError[],
  keys: readonly string[],
  defaults: Readonly<Record<string, unknown>>,
): void {
  const seen = new Set<string>();
  items.forEach((v, i) => {
    if (typeof v !== "object" || v === null || Array.isArray(v)) return;
    const obj = v as JsonObject;
    const tuple: JsonObject = {};
    for (const k of keys) tuple[k] = absent(obj[k]) ? defaults[k] : obj[k];
    const id = goJson(keys.map((k) => tuple[k]));
    if (seen.has(id)) {
      const [only] = keys;
      if (keys.length === 1 && only !== undefined) errs.push(duplicate(child(index(path, i), only), tuple[only]));
      else errs.push(duplicate(index(path, i), tuple));
    }
    seen.add(id);
  });
}

export function map(value: unknown, path: string, errs: FieldError[], entry?: Check, rules?: MapRules): void {
  const obj = object(value, path, errs);
  if (obj === undefined) return;
  const size = Object.keys(obj).length;
  if (rules?.maxProperties !== undefined && size > rules.maxProperties) {
    errs.push(tooMany(path, size, rules.maxProperties));
  }
  if (rules?.minProperties !== undefined && size < rules.minProperties) {
    errs.push(invalid(path, size, `${path} in body should have at least ${rules.minProperties} properties`));
  }
  if (entry !== undefined) for (const [k, v] of Object.entries(obj)) entry(v, key(path, k), errs);
}

/** Runs a generated validator on a whole object; paths start at its top-level fields. */
export function run(check: Check, value: unknown): FieldError[] {
  const errs: FieldError[] = [];
  check(value, "", errs);
  return errs;
}
