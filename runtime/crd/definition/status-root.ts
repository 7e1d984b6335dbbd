// With the status subresource, the root of a CRD schema may only hold keywords that still make sense
// once status is validated on its own as properties[status] (kube checks the Go fields in order and
// reports the first one that is not allowed).
import { type FieldError, invalid } from "../../errors/field-error.js";
import type { SchemaProps } from "./schema-props.js";

/** JSONSchemaProps' fields in Go's order: the JSON key, the Go name, whether allowed at the root. */
const rootFields: readonly [string, string, boolean][] = [
  ["id", "ID", false],
  ["$schema", "Schema", false],
  ["$ref", "Ref", false],
  ["description", "Description", true],
  ["type", "Type", true],
  ["nullable", "Nullable", false],
  ["format", "Format", true],
  ["title", "Title", true],
  ["default", "Default", false],
  ["maximum", "Maximum", true],
  ["exclusiveMaximum", "ExclusiveMaximum", true],
  ["minimum", "Minimum", true],
  ["exclusiveMinimum", "ExclusiveMinimum", true],
  ["maxLength", "MaxLength", true],
  ["minLength", "MinLength", true],
  ["pattern", "Pattern", true],
  ["maxItems", "MaxItems", true],
  ["minItems", "MinItems", true],
  ["uniqueItems", "UniqueItems", true],
  ["multipleOf", "MultipleOf", true],
  ["enum", "Enum", false],
  ["maxProperties", "MaxProperties", false],
  ["minProperties", "MinProperties", false],
  ["required", "Required", true],
  ["items", "Items", true],
  ["allOf", "AllOf", false],
  ["oneOf", "OneOf", false],
  ["anyOf", "AnyOf", false],
  ["not", "Not", false],
  ["properties", "Properties", true],
  ["additionalProperties", "AdditionalProperties", false],
  ["patternProperties", "PatternProperties", false],
  ["dependencies", "Dependencies", false],
  ["additionalItems", "AdditionalItems", false],
  ["definitions", "Definitions", false],
  ["externalDocs", "ExternalDocs", true],
  ["example", "Example", true],
  ["x-kubernetes-preserve-unknown-fields", "XPreserveUnknownFields", true],
  ["x-kubernetes-embedded-resource", "XEmbeddedResource", false],
  ["x-kubernetes-int-or-string", "XIntOrString", false],
  ["x-kubernetes-list-map-keys", "XListMapKeys", false],
  ["x-kubernetes-list-type", "XListType", false],
  ["x-kubernetes-map-type", "XMapType", false],
  ["x-kubernetes-validations", "XValidations", true],
];

const allowedNames = rootFields.filter(([, , allowed]) => allowed).map(([, name]) => name);

/** Go's zero value test: unset, false and "" are zero; lists, maps and numbers are set when present. */
function isSet(value: unknown): boolean {
  return value !== undefined && value !== false && value !== "";
}

export function statusRootErrors(schema: SchemaProps, path: string): FieldError[] {
  const fields = schema as Record<string, unknown>;
  for (const [jsonKey, , allowed] of rootFields) {
    if (!isSet(fields[jsonKey])) continue;
    if (jsonKey === "type") {
      if (schema.type === "object") continue;
      const detail =
        'only "object" is allowed as the type at the root of the schema if the status subresource is enabled';
      return [invalid(`${path}.openAPIV3Schema.type`, schema.type, detail)];
    }
    if (!allowed) {
      const detail = `only [${allowedNames.join(" ")}] fields are allowed at the root of the schema if the status subresource is enabled`;
      return [invalid(`${path}.openAPIV3Schema`, schema, detail)];
    }
  }
  return [];
}
