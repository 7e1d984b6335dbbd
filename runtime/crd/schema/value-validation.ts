// OpenAPI v3 value validation of a custom resource, as the apiextensions server runs kube-openapi's
// SchemaValidator on it and turns the result into field errors (kubeOpenAPIResultToFieldErrors). Each
// node runs kube-openapi's validators in its order: type, allOf/anyOf/oneOf/not, string, format, number,
// list, enum, object. Names are kube-openapi's (`spec.replicas`, list items `spec.items[0]`, map values
// `spec.labels.key`); errors without a field (anyOf and the like) read `<nil>` as kube prints them.
// Repeated messages are reported once, as kube-openapi's Result keeps them unique.

import { type FieldError, invalid, notSupported, required, typeInvalid } from "../../errors/field-error.js";
import { formatFieldError } from "../../errors/format-field-error.js";
import { goJson, goNumber, goQuote } from "../../errors/go-format.js";
import { isJsonObject, type JsonObject } from "../../object/json-object.js";
import { compilePattern, type Pattern } from "../../validation/pattern.js";
import * as checks from "../../validation/schema-checks.js";
import { stringFormatCheck, supportedFormat } from "./crd-formats.js";

/** The errors of one validation and how much of the schema it satisfied (kube-openapi's MatchCount). */
class Outcome {
  readonly errors: FieldError[] = [];
  private seen: Set<string> | undefined;
  matched = 0;

  add(error: FieldError): void {
    const text = formatFieldError(error);
    this.seen ??= new Set();
    if (this.seen.has(text)) return;
    this.seen.add(text);
    this.errors.push(error);
  }

  merge(other: Outcome): void {
    for (const e of other.errors) this.add(e);
    this.matched += other.matched;
  }

  get valid(): boolean {
    return this.errors.length === 0;
  }
}

export type ValueValidator = (value: unknown, name: string) => Outcome;

/** The field path of a kube-openapi name: its leading dot dropped, `<nil>` for the root. */
function fieldOf(name: string): string {
  if (name === "" || name === ".") return "<nil>";
  return name.startsWith(".") ? name.slice(1) : name;
}

function typeError(name: string, expected: string, actual: string): FieldError {
  return typeInvalid(fieldOf(name), actual, `${name} in body must be of type ${expected}: ${goQuote(actual)}`);
}

function composite(message: string): FieldError {
  return invalid("<nil>", "", message);
}

/** Runs a shared schema check and re-homes its errors on the kube-openapi field path. */
function collect(out: Outcome, run: (errs: FieldError[]) => void): boolean {
  const errs: FieldError[] = [];
  run(errs);
  for (const e of errs) out.add({ ...e, field: fieldOf(e.field) });
  return errs.length === 0;
}

/** The Go type name and width the type validator infers from a decoded value. */
function valueFormat(value: unknown): string {
  if (typeof value === "number") return Number.isInteger(value) ? "int64" : "float64";
  return "";
}

function numberOf(value: unknown): number | undefined {
  return typeof value === "number" ? value : undefined;
}

function isMultipleOf(value: number, factor: number): boolean {
  if (Number.isInteger(value) && Number.isInteger(factor) && factor !== 0) return value % factor === 0;
  const ratio = factor < 1 ? (1 / factor) * value : value / factor;
  return Number.isFinite(ratio) && Math.abs(ratio - Math.round(ratio)) < 1e-9 * Math.max(1, Math.abs(ratio));
}

function compiledPattern(pattern: string): Pattern | string {
  const re = compilePattern(pattern);
  return typeof re === "string" ? `${pattern}, but pattern is invalid: ${re}` : re;
}

interface Node {
  readonly types: readonly string[];
  readonly nullable: boolean;
  readonly format?: string;
  readonly formatCheck?: (s: string) => boolean;
  readonly allOf: readonly ValueValidator[];
  readonly anyOf: readonly ValueValidator[];
  readonly oneOf: readonly ValueValidator[];
  readonly not?: ValueValidator;
  readonly maxLength?: number;
  readonly minLength?: number;
  readonly pattern?: { readonly source: string; readonly re: Pattern | string };
  readonly multipleOf?: number;
  readonly number: checks.NumberRules;
  readonly hasNumberRules: boolean;
  readonly items?: ValueValidator;
  readonly list: checks.ListRules;
  readonly uniqueItems: boolean;
  readonly enum?: readonly unknown[];
  readonly map: checks.MapRules;
  readonly required: readonly string[];
  readonly properties: ReadonlyMap<string, ValueValidator>;
  /** additionalProperties: a schema, `false` (no other keys), or undefined (anything). */
  readonly additional?: ValueValidator | false;
}

function compileList(value: unknown): ValueValidator[] {
  return Array.isArray(value) ? value.filter(isJsonObject).map(compileValueValidator) : [];
}

function compileNode(props: JsonObject): Node {
  const intOrString = props["x-kubernetes-int-or-string"] === true;
  const types = intOrString ? ["integer", "string"] : typeof props.type === "string" ? [props.type] : [];
  const format = supportedFormat(types.length === 1 ? (types[0] ?? "") : "", numberOrString(props.format));
  const formatCheck = format === undefined ? undefined : stringFormatCheck(format);
  const properties = new Map<string, ValueValidator>();
  if (isJsonObject(props.properties)) {
    for (const [k, v] of Object.entries(props.properties))
      if (isJsonObject(v)) properties.set(k, compileValueValidator(v));
  }
  const number: checks.NumberRules = {
    ...optional("minimum", numberOf(props.minimum)),
    ...optional("maximum", numberOf(props.maximum)),
    ...optional("exclusiveMinimum", props.exclusiveMinimum === true ? true : undefined),
    ...optional("exclusiveMaximum", props.exclusiveMaximum === true ? true : undefined),
  };
  const pattern = typeof props.pattern === "string" ? props.pattern : undefined;
  const additional: ValueValidator | false | undefined = isJsonObject(props.additionalProperties)
    ? compileValueValidator(props.additionalProperties)
    : props.additionalProperties === false
      ? false
      : undefined;
  return {
    types,
    nullable: props.nullable === true,
    ...optional("format", format),
    ...optional("formatCheck", formatCheck),
    allOf: compileList(props.allOf),
    anyOf: compileList(props.anyOf),
    oneOf: compileList(props.oneOf),
    ...optional("not", isJsonObject(props.not) ? compileValueValidator(props.not) : undefined),
    ...optional("maxLength", numberOf(props.maxLength)),
    ...optional("minLength", numberOf(props.minLength)),
    ...optional("pattern", pattern === undefined ? undefined : { source: pattern, re: compiledPattern(pattern) }),
    ...optional("multipleOf", numberOf(props.multipleOf)),
    number,
    hasNumberRules: number.minimum !== undefined || number.maximum !== undefined,
    ...optional("items", isJsonObject(props.items) ? compileValueValidator(props.items) : undefined),
    list: { ...optional("minItems", numberOf(props.minItems)), ...optional("maxItems", numberOf(props.maxItems)) },
    uniqueItems: props.uniqueItems === true,
    ...optional("enum", Array.isArray(props.enum) ? props.enum : undefined),
    map: {
      ...optional("minProperties", numberOf(props.minProperties)),
      ...optional("maxProperties", numberOf(props.maxProperties)),
    },
    required: Array.isArray(props.required) ? props.required.filter((r): r is string => typeof r === "string") : [],
    properties,
    ...optional("additional", additional),
  };
}

function numberOrString(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

function checkType(node: Node, value: unknown, name: string, out: Outcome): void {
  if (node.types.length === 0 && node.format === undefined) return;
  const actual = checks.jsonType(value);
  const isString = typeof value === "string" || Array.isArray(value);
  const intAsNumber = actual === "integer" && node.types.includes("number");
  if (
    !isString &&
    node.format !== undefined &&
    !(node.types.includes(actual) || valueFormat(value) === node.format || intAsNumber)
  ) {
    out.add(typeError(name, node.format, valueFormat(value)));
    return;
  }
  const numeric = node.types.includes("number") || node.types.includes("integer");
  if (!numeric && node.format !== undefined && isString) return;
  if (!(node.types.includes(actual) || intAsNumber)) {
    out.add(typeError(name, node.types.join(","), actual));
    return;
  }
  out.matched++;
}

/** anyOf, oneOf, allOf and not, with kube-openapi's choice of which failures to show. */
function checkComposition(node: Node, value: unknown, name: string, out: Outcome): void {
  if (node.anyOf.length > 0) {
    let best: Outcome | undefined;
    let passed: Outcome | undefined;
    for (const alternative of node.anyOf) {
      const result = alternative(value, name);
      if (result.valid) {
        passed = result;
        break;
      }
      if (best === undefined || result.matched > best.matched) best = result;
    }
    if (passed === undefined) {
      out.add(composite(`${goQuote(name)} must validate at least one schema (anyOf)`));
      if (best !== undefined) out.merge(best);
    } else out.merge(passed);
  }
  if (node.oneOf.length > 0) {
    let best: Outcome | undefined;
    let first: Outcome | undefined;
    let validated = 0;
    for (const alternative of node.oneOf) {
      const result = alternative(value, name);
      if (result.valid) {
        validated++;
        best = undefined;
        first ??= result;
      } else if (validated === 0 && (best === undefined || result.matched > best.matched)) best = result;
    }
    if (validated !== 1) {
      const detail = validated === 0 ? "Found none valid" : `Found ${validated} valid alternatives`;
      out.add(composite(`${goQuote(name)} must validate one and only one schema (oneOf). ${detail}`));
      if (best !== undefined) out.merge(best);
    } else if (first !== undefined) out.merge(first);
  }
  if (node.allOf.length > 0) {
    let validated = 0;
    for (const schema of node.allOf) {
      const result = schema(value, name);
      if (result.valid) validated++;
      out.merge(result);
    }
    if (validated !== node.allOf.length) {
      const detail = validated === 0 ? ". None validated" : "";
      out.add(composite(`${goQuote(name)} must validate all the schemas (allOf)${detail}`));
    }
  }
  if (node.not?.(value, name).valid) {
    out.add(composite(`${goQuote(name)} must not validate the schema (not)`));
  }
}

function checkString(node: Node, value: string, name: string, out: Outcome): void {
  const { maxLength, minLength, pattern } = node;
  if (maxLength !== undefined && !collect(out, (e) => checks.string(value, name, e, { maxLength }))) return;
  if (minLength !== undefined && !collect(out, (e) => checks.string(value, name, e, { minLength }))) return;
  if (pattern !== undefined) {
    const ok = typeof pattern.re !== "string" && pattern.re.test(value);
    const shown = typeof pattern.re === "string" ? pattern.re : pattern.source;
    if (!ok) out.add(invalid(fieldOf(name), value, `${name} in body should match '${shown}'`));
  }
  if (node.formatCheck !== undefined && node.format !== undefined && !node.formatCheck(value)) {
    out.add(typeInvalid(fieldOf(name), value, `${name} in body must be of type ${node.format}: ${goQuote(value)}`));
  }
}

function checkNumber(node: Node, value: number, name: string, out: Outcome): void {
  if (node.multipleOf !== undefined && !isMultipleOf(value, node.multipleOf)) {
    out.add(invalid(fieldOf(name), value, `${name} in body should be a multiple of ${goNumber(node.multipleOf)}`));
  }
  if (node.hasNumberRules) collect(out, (e) => checks.number(value, name, e, node.number));
}

function checkList(node: Node, value: readonly unknown[], name: string, out: Outcome): void {
  if (node.items !== undefined) {
    for (const [i, item] of value.entries()) out.merge(node.items(item, `${name}[${i}]`));
  }
  if (node.list.minItems !== undefined || node.list.maxItems !== undefined) {
    collect(out, (e) => checks.list(value, name, e, undefined, node.list));
  }
  if (node.uniqueItems && new Set(value.map(goJson)).size !== value.length) {
    out.add(invalid(fieldOf(name), "", `${name} in body shouldn't contain duplicates`));
  }
}

/** kube-openapi compares a null value with no enum member, so null never satisfies an enum. */
function checkEnum(node: Node, value: unknown, name: string, out: Outcome): void {
  if (node.enum === undefined || node.enum.length === 0) return;
  if (value !== null && value !== undefined) {
    const text = goJson(value);
    if (node.enum.some((allowed) => allowed !== null && goJson(allowed) === text)) return;
  }
  out.add(notSupported(fieldOf(name), value ?? null, node.enum));
}

function checkObject(node: Node, value: JsonObject, name: string, out: Outcome): void {
  const { minProperties, maxProperties } = node.map;
  const sized = minProperties !== undefined || maxProperties !== undefined;
  if (sized && !collect(out, (e) => checks.map(value, name, e, undefined, node.map))) return;
  const childName = (key: string) => (name === "" ? key : `${name}.${key}`);
  for (const [key, child] of Object.entries(value)) {
    if (node.properties.has(key)) continue;
    if (node.additional === false) {
      out.add(invalid(fieldOf(name), key, `${name}.${key} in body is a forbidden property`));
    } else if (node.additional !== undefined) out.merge(node.additional(child, `${name}.${key}`));
  }
  for (const [key, check] of node.properties) {
    if (Object.hasOwn(value, key)) out.merge(check(value[key], childName(key)));
  }
  for (const key of node.required) if (!Object.hasOwn(value, key)) out.add(required(fieldOf(`${name}.${key}`)));
}

function validateNode(node: Node, value: unknown, name: string): Outcome {
  const out = new Outcome();
  if (value === null || value === undefined) {
    if (node.types.length > 0 && !node.nullable) out.add(typeError(name, node.types.join(","), "null"));
    checkEnum(node, value, name, out);
    return out;
  }
  checkType(node, value, name, out);
  checkComposition(node, value, name, out);
  if (typeof value === "string") checkString(node, value, name, out);
  else if (typeof value === "number") checkNumber(node, value, name, out);
  else if (Array.isArray(value)) checkList(node, value, name, out);
  checkEnum(node, value, name, out);
  if (isJsonObject(value)) checkObject(node, value, name, out);
  out.matched++;
  return out;
}

/** Compiles a JSONSchemaProps node once; the validator walks a value and reports kube-openapi's errors. */
export function compileValueValidator(props: JsonObject): ValueValidator {
  const node = compileNode(props);
  return (value, name) => validateNode(node, value, name);
}

/** The field errors of a whole object against a compiled root schema. */
export function valueErrors(validator: ValueValidator, obj: unknown): FieldError[] {
  return validator(obj, "").errors;
}
