// The schema CEL rules are compiled and evaluated against: a structural OpenAPI v3 schema as the
// apiextensions server keeps it (no $ref, no oneOf), so that built-in kinds (from kapi's schemas) and
// CustomResourceDefinitions (from their openAPIV3Schema) go through the same code.

export type ValidationReason =
  | "FieldValueInvalid"
  | "FieldValueForbidden"
  | "FieldValueRequired"
  | "FieldValueDuplicate";

/** One entry of `x-kubernetes-validations`. */
export interface ValidationRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  reason?: ValidationReason;
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

export interface StructuralSchema {
  type?: "object" | "array" | "string" | "integer" | "number" | "boolean";
  format?: string;
  properties?: Readonly<Record<string, StructuralSchema>>;
  /** A schema for the values of a map; `true` allows any (no CEL type), as `false` or absent. */
  additionalProperties?: StructuralSchema | boolean;
  items?: StructuralSchema;
  required?: readonly string[];
  enum?: readonly unknown[];
  default?: unknown;
  nullable?: boolean;
  maxLength?: number;
  maxItems?: number;
  maxProperties?: number;
  "x-kubernetes-list-type"?: "atomic" | "set" | "map";
  "x-kubernetes-list-map-keys"?: readonly string[];
  "x-kubernetes-map-type"?: "atomic" | "granular";
  "x-kubernetes-int-or-string"?: boolean;
  "x-kubernetes-preserve-unknown-fields"?: boolean;
  "x-kubernetes-embedded-resource"?: boolean;
  "x-kubernetes-validations"?: readonly ValidationRule[];
}

const stringSchema: StructuralSchema = { type: "string" };
const minimalObjectMeta: StructuralSchema = {
  type: "object",
  properties: { name: stringSchema, generateName: stringSchema },
};

/**
 * A resource root (a kind, or an embedded resource) with apiVersion, kind, metadata.name and
 * metadata.generateName always declared, as Kubernetes gives rules there; the schema itself when it
 * already declares them, otherwise a copy whose metadata is only those two fields.
 */
export function withTypeAndObjectMeta(schema: StructuralSchema): StructuralSchema {
  const props = schema.properties;
  const meta = props?.metadata;
  if (
    props?.kind?.type === "string" &&
    props.apiVersion?.type === "string" &&
    meta?.type === "object" &&
    meta.properties?.name?.type === "string" &&
    meta.properties.generateName?.type === "string"
  ) {
    return schema;
  }
  return {
    ...schema,
    properties: { ...props, kind: stringSchema, apiVersion: stringSchema, metadata: minimalObjectMeta },
  };
}

/** Whether a schema tree carries any x-kubernetes-validations rule. */
export function hasValidationRules(schema: StructuralSchema | undefined): boolean {
  if (schema === undefined) return false;
  if ((schema["x-kubernetes-validations"]?.length ?? 0) > 0) return true;
  if (hasValidationRules(schema.items)) return true;
  if (typeof schema.additionalProperties === "object" && hasValidationRules(schema.additionalProperties)) return true;
  return Object.values(schema.properties ?? {}).some(hasValidationRules);
}
