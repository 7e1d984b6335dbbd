// A CustomResourceDefinition version's openAPIV3Schema as the StructuralSchema the CEL engine reads. A
// structural JSONSchemaProps already uses StructuralSchema's key names, so this is a typed copy of the keys
// that type the values (and the rules on them), leaving out value-validation-only keywords (allOf, anyOf,
// oneOf, not, patterns, bounds) that CEL never sees, as the apiextensions server's NewStructural does.

import type { StructuralSchema, ValidationReason, ValidationRule } from "../../cel/rules/structural-schema.js";
import { isJsonObject, type JsonObject } from "../../object/json-object.js";

type Writable<T> = { -readonly [K in keyof T]: T[K] };

const types = new Set(["object", "array", "string", "integer", "number", "boolean"]);
const reasons = new Set(["FieldValueInvalid", "FieldValueForbidden", "FieldValueRequired", "FieldValueDuplicate"]);

function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : undefined;
}

function numberOf(value: unknown): number | undefined {
  return typeof value === "number" ? value : undefined;
}

function validationRule(value: unknown): ValidationRule | undefined {
  if (!isJsonObject(value) || typeof value.rule !== "string") return undefined;
  const rule: Writable<ValidationRule> = { rule: value.rule };
  if (typeof value.message === "string") rule.message = value.message;
  if (typeof value.messageExpression === "string") rule.messageExpression = value.messageExpression;
  if (typeof value.reason === "string" && reasons.has(value.reason)) rule.reason = value.reason as ValidationReason;
  if (typeof value.fieldPath === "string") rule.fieldPath = value.fieldPath;
  if (typeof value.optionalOldSelf === "boolean") rule.optionalOldSelf = value.optionalOldSelf;
  return rule;
}

function copyMarkers(props: JsonObject, out: Writable<StructuralSchema>): void {
  const listType = props["x-kubernetes-list-type"];
  if (listType === "atomic" || listType === "set" || listType === "map") out["x-kubernetes-list-type"] = listType;
  const keys = stringList(props["x-kubernetes-list-map-keys"]);
  if (keys !== undefined) out["x-kubernetes-list-map-keys"] = keys;
  const mapType = props["x-kubernetes-map-type"];
  if (mapType === "atomic" || mapType === "granular") out["x-kubernetes-map-type"] = mapType;
  for (const flag of [
    "x-kubernetes-int-or-string",
    "x-kubernetes-preserve-unknown-fields",
    "x-kubernetes-embedded-resource",
  ] as const) {
    if (typeof props[flag] === "boolean") out[flag] = props[flag] as boolean;
  }
  const rules = props["x-kubernetes-validations"];
  if (Array.isArray(rules)) {
    out["x-kubernetes-validations"] = rules.map(validationRule).filter((r): r is ValidationRule => r !== undefined);
  }
}

/** The StructuralSchema of a JSONSchemaProps object (a CRD version's openAPIV3Schema or any node of it). */
export function toStructuralSchema(props: JsonObject): StructuralSchema {
  const out: Writable<StructuralSchema> = {};
  if (typeof props.type === "string" && types.has(props.type))
    out.type = props.type as NonNullable<StructuralSchema["type"]>;
  if (typeof props.format === "string") out.format = props.format;
  if (isJsonObject(props.properties)) {
    const properties: Record<string, StructuralSchema> = {};
    for (const [name, child] of Object.entries(props.properties)) {
      if (isJsonObject(child)) properties[name] = toStructuralSchema(child);
    }
    out.properties = properties;
  }
  const additional = props.additionalProperties;
  if (isJsonObject(additional)) out.additionalProperties = toStructuralSchema(additional);
  else if (typeof additional === "boolean") out.additionalProperties = additional;
  if (isJsonObject(props.items)) out.items = toStructuralSchema(props.items);
  const required = stringList(props.required);
  if (required !== undefined) out.required = required;
  if (Array.isArray(props.enum)) out.enum = props.enum;
  if (props.default !== undefined) out.default = props.default;
  if (typeof props.nullable === "boolean") out.nullable = props.nullable;
  const maxLength = numberOf(props.maxLength);
  if (maxLength !== undefined) out.maxLength = maxLength;
  const maxItems = numberOf(props.maxItems);
  if (maxItems !== undefined) out.maxItems = maxItems;
  const maxProperties = numberOf(props.maxProperties);
  if (maxProperties !== undefined) out.maxProperties = maxProperties;
  copyMarkers(props, out);
  return out;
}
