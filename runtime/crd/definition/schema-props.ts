// A CustomResourceDefinition's JSONSchemaProps read from decoded JSON: only well-typed keywords are kept
// (a keyword of the wrong JSON type is the generated validators' to report), so the checks below can
// rely on the types Go's decoder would have produced. A `default: null` reads as no default, as Go
// decodes a null into a nil pointer.
import type { StructuralSchema, ValidationRule } from "../../cel/rules/structural-schema.js";
import { asObject, type JsonObject } from "../../validation/walk.js";

export interface SchemaProps {
  id?: string;
  $schema?: string;
  $ref?: string;
  description?: string;
  type?: string;
  format?: string;
  title?: string;
  default?: unknown;
  maximum?: number;
  exclusiveMaximum?: boolean;
  minimum?: number;
  exclusiveMinimum?: boolean;
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  maxItems?: number;
  minItems?: number;
  uniqueItems?: boolean;
  multipleOf?: number;
  enum?: unknown[];
  maxProperties?: number;
  minProperties?: number;
  required?: string[];
  /** A schema, or (never structural) a list of schemas. */
  items?: SchemaProps | SchemaProps[];
  allOf?: SchemaProps[];
  oneOf?: SchemaProps[];
  anyOf?: SchemaProps[];
  not?: SchemaProps;
  properties?: Record<string, SchemaProps>;
  additionalProperties?: SchemaProps | boolean;
  patternProperties?: Record<string, SchemaProps>;
  dependencies?: Record<string, SchemaProps | string[]>;
  additionalItems?: SchemaProps | boolean;
  definitions?: Record<string, SchemaProps>;
  externalDocs?: JsonObject;
  example?: unknown;
  nullable?: boolean;
  "x-kubernetes-preserve-unknown-fields"?: boolean;
  "x-kubernetes-embedded-resource"?: boolean;
  "x-kubernetes-int-or-string"?: boolean;
  "x-kubernetes-list-map-keys"?: string[];
  "x-kubernetes-list-type"?: string;
  "x-kubernetes-map-type"?: string;
  "x-kubernetes-validations"?: ValidationRule[];
}

const stringKeys = ["id", "$schema", "$ref", "description", "type", "format", "title", "pattern"] as const;
const numberKeys = [
  "maximum",
  "minimum",
  "maxLength",
  "minLength",
  "maxItems",
  "minItems",
  "multipleOf",
  "maxProperties",
  "minProperties",
] as const;
const booleanKeys = [
  "exclusiveMaximum",
  "exclusiveMinimum",
  "uniqueItems",
  "nullable",
  "x-kubernetes-preserve-unknown-fields",
  "x-kubernetes-embedded-resource",
  "x-kubernetes-int-or-string",
] as const;

function strings(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : undefined;
}

function schemaList(value: unknown): SchemaProps[] | undefined {
  return Array.isArray(value) ? value.map((v) => readSchemaProps(v) ?? {}) : undefined;
}

function schemaMap(value: unknown): Record<string, SchemaProps> | undefined {
  const obj = asObject(value);
  if (obj === undefined) return undefined;
  const out: Record<string, SchemaProps> = {};
  for (const [k, v] of Object.entries(obj)) out[k] = readSchemaProps(v) ?? {};
  return out;
}

function schemaOrBool(value: unknown): SchemaProps | boolean | undefined {
  return typeof value === "boolean" ? value : readSchemaProps(value);
}

function validationRules(value: unknown): ValidationRule[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.map((v) => {
    const rule = asObject(v) ?? {};
    const out: Record<string, unknown> = { rule: typeof rule.rule === "string" ? rule.rule : "" };
    for (const k of ["message", "messageExpression", "reason", "fieldPath"]) {
      if (typeof rule[k] === "string") out[k] = rule[k];
    }
    if (typeof rule.optionalOldSelf === "boolean") out.optionalOldSelf = rule.optionalOldSelf;
    return out as unknown as ValidationRule;
  });
}

/** The schema in a decoded JSONSchemaProps; undefined when the value is not an object. */
export function readSchemaProps(value: unknown): SchemaProps | undefined {
  const obj = asObject(value);
  if (obj === undefined) return undefined;
  const s: Record<string, unknown> = {};
  for (const k of stringKeys) if (typeof obj[k] === "string") s[k] = obj[k];
  for (const k of numberKeys) if (typeof obj[k] === "number") s[k] = obj[k];
  for (const k of booleanKeys) if (typeof obj[k] === "boolean") s[k] = obj[k];
  if (obj.default !== undefined && obj.default !== null) s.default = obj.default;
  if (obj.example !== undefined && obj.example !== null) s.example = obj.example;
  if (Array.isArray(obj.enum)) s.enum = obj.enum;
  if (asObject(obj.externalDocs) !== undefined) s.externalDocs = obj.externalDocs;
  const required = strings(obj.required);
  if (required !== undefined) s.required = required;
  const items = Array.isArray(obj.items) ? schemaList(obj.items) : readSchemaProps(obj.items);
  if (items !== undefined) s.items = items;
  for (const k of ["allOf", "oneOf", "anyOf"]) {
    const list = schemaList(obj[k]);
    if (list !== undefined) s[k] = list;
  }
  const not = readSchemaProps(obj.not);
  if (not !== undefined) s.not = not;
  for (const k of ["properties", "patternProperties", "definitions"]) {
    const map = schemaMap(obj[k]);
    if (map !== undefined) s[k] = map;
  }
  for (const k of ["additionalProperties", "additionalItems"]) {
    const value = schemaOrBool(obj[k]);
    if (value !== undefined) s[k] = value;
  }
  const dependencies = asObject(obj.dependencies);
  if (dependencies !== undefined) {
    const out: Record<string, SchemaProps | string[]> = {};
    for (const [k, v] of Object.entries(dependencies)) out[k] = strings(v) ?? readSchemaProps(v) ?? {};
    s.dependencies = out;
  }
  const mapKeys = strings(obj["x-kubernetes-list-map-keys"]);
  if (mapKeys !== undefined) s["x-kubernetes-list-map-keys"] = mapKeys;
  for (const k of ["x-kubernetes-list-type", "x-kubernetes-map-type"]) {
    if (typeof obj[k] === "string") s[k] = obj[k];
  }
  const rules = validationRules(obj["x-kubernetes-validations"]);
  if (rules !== undefined) s["x-kubernetes-validations"] = rules;
  return s as SchemaProps;
}

/** The single item schema; undefined when absent or a list of schemas. */
export function itemSchema(s: SchemaProps): SchemaProps | undefined {
  return s.items === undefined || Array.isArray(s.items) ? undefined : s.items;
}

/** The schema of additionalProperties when it is one (not a boolean). */
export function additionalSchema(s: SchemaProps): SchemaProps | undefined {
  return typeof s.additionalProperties === "object" ? s.additionalProperties : undefined;
}

/** Whether `pred` holds for `s` or any schema below it (kube's SchemaHas). */
export function schemaHas(s: SchemaProps | undefined, pred: (s: SchemaProps) => boolean): boolean {
  if (s === undefined) return false;
  if (pred(s)) return true;
  const below: (SchemaProps | undefined)[] = [
    ...(Array.isArray(s.items) ? s.items : [s.items]),
    ...(s.allOf ?? []),
    ...(s.anyOf ?? []),
    ...(s.oneOf ?? []),
    s.not,
    ...Object.values(s.properties ?? {}),
    additionalSchema(s),
    ...Object.values(s.patternProperties ?? {}),
    typeof s.additionalItems === "object" ? s.additionalItems : undefined,
    ...Object.values(s.definitions ?? {}),
    ...Object.values(s.dependencies ?? {}).map((d) => (Array.isArray(d) ? undefined : d)),
  ];
  return below.some((b) => schemaHas(b, pred));
}

/** Keywords CEL never reads that could hold schemas the engine must not mistake for structure. */
const valueValidationOnly = ["allOf", "anyOf", "oneOf", "not"] as const;

/**
 * The schema as the CEL engine takes it (a structural JSONSchemaProps has StructuralSchema's key names,
 * so this is a cast of a copy): value-validation clauses left out, x-kubernetes-validations kept only
 * on the nodes `keepRules` accepts. Invalid rule fields stay, for the rule checks to report.
 */
export function toCelSchema(s: SchemaProps, keepRules: (s: SchemaProps) => boolean = () => true): StructuralSchema {
  const out: SchemaProps = { ...s };
  for (const k of valueValidationOnly) delete out[k];
  if (!keepRules(s)) delete out["x-kubernetes-validations"];
  const celType =
    s.type !== undefined && ["object", "array", "string", "integer", "number", "boolean"].includes(s.type);
  if (!celType) delete out.type;
  const cel = (sub: SchemaProps) => toCelSchema(sub, keepRules) as SchemaProps;
  if (s.properties !== undefined) {
    out.properties = Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, cel(v)]));
  }
  const items = itemSchema(s);
  if (items !== undefined) out.items = cel(items);
  else delete out.items;
  const additional = additionalSchema(s);
  if (additional !== undefined) out.additionalProperties = cel(additional);
  return out as StructuralSchema;
}
