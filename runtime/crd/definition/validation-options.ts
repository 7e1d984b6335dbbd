// What the validation of a CustomResourceDefinition requires. A create requires everything; an update
// relaxes a rule the stored object already breaks (kube's ratcheting: "don't tighten validation on
// existing persisted data"), keeps cost limits off versions whose schema did not change, and makes
// names immutable once the definition is Established.
import { semanticEqual } from "../../validation/field-rules.js";
import { asObject, listItems } from "../../validation/walk.js";
import type { ConversionOptions } from "./conversion.js";
import { hasUnknownFields } from "./default-values.js";
import { allSchemas, type InternalSpec, schemaForVersion } from "./internal-spec.js";
import { itemSchema, type SchemaProps, schemaHas } from "./schema-props.js";
import type { SchemaOptions } from "./schema-validation.js";
import { mapListKeysMapSetErrors } from "./schema-value-checks.js";
import { maxSelectableFields } from "./selectable-fields.js";
import { structuralErrors, unsupportedKeywordError } from "./structural-checks.js";
import { caBundleErrors } from "./webhook-client-config.js";

export interface DefinitionOptions extends Omit<SchemaOptions, "suppressPerExpressionCost">, ConversionOptions {
  requireOpenAPISchema: boolean;
  requireImmutableNames: boolean;
  /** Versions whose schema an update leaves as it was. */
  versionsWithUnchangedSchemas: ReadonlySet<string>;
  /** Versions ("" for the shared list) that may keep more selectable fields than the limit. */
  allowTooManySelectableFields: ReadonlySet<string>;
}

export const createOptions: DefinitionOptions = {
  requireOpenAPISchema: true,
  requireImmutableNames: false,
  requireValidPropertyType: true,
  requireStructuralSchema: true,
  requirePrunedDefaults: true,
  requireAtomicSetType: true,
  requireMapListKeysMapSetValidation: true,
  requireRecognizedConversionReviewVersion: true,
  // A definition not yet Established may carry any CA bundle.
  allowInvalidCABundle: true,
  versionsWithUnchangedSchemas: new Set(),
  allowTooManySelectableFields: new Set(),
};

const openapiTypes = new Set(["string", "number", "integer", "boolean", "array", "object"]);

function anySchemaHas(spec: InternalSpec, pred: (s: SchemaProps) => boolean): boolean {
  return allSchemas(spec).some((s) => schemaHas(s, pred));
}

function nonStructural(s: SchemaProps): boolean {
  return unsupportedKeywordError(s) !== undefined || structuralErrors(s, "").length > 0;
}

function hasUnprunedDefaults(s: SchemaProps): boolean {
  if (nonStructural(s)) return false;
  return schemaHas(s, (node) => node.default !== undefined && hasUnknownFields(node.default, node));
}

function hasNonAtomicSetItems(s: SchemaProps): boolean {
  const items = itemSchema(s);
  if (s["x-kubernetes-list-type"] !== "set" || items === undefined) return false;
  if (items.type === "array") return (items["x-kubernetes-list-type"] ?? "atomic") !== "atomic";
  return items.type === "object" && items["x-kubernetes-map-type"] !== "atomic";
}

export function isEstablished(obj: unknown): boolean {
  const conditions = listItems(asObject(asObject(obj)?.status)?.conditions);
  return conditions.some((c) => asObject(c)?.type === "Established" && asObject(c)?.status === "True");
}

function allowInvalidCABundle(oldObj: unknown, old: InternalSpec): boolean {
  if (!isEstablished(oldObj)) return true;
  const caBundle = old.conversion?.webhookClientConfig?.caBundle;
  return caBundle !== undefined && caBundleErrors("", caBundle).length > 0;
}

function unchangedSchemaVersions(spec: InternalSpec, old: InternalSpec): Set<string> {
  const out = new Set<string>();
  for (const version of spec.versions) {
    const oldVersion = old.versions.find((v) => v.name === version.name);
    if (oldVersion !== undefined && semanticEqual(schemaForVersion(spec, version), schemaForVersion(old, oldVersion))) {
      out.add(version.name);
    }
  }
  return out;
}

function tooManySelectableFieldsAllowed(spec: InternalSpec, old: InternalSpec): Set<string> {
  const out = new Set<string>();
  const keeps = (now: unknown[] | undefined, before: unknown[] | undefined) =>
    (before?.length ?? 0) > maxSelectableFields && semanticEqual(now, before);
  if (keeps(spec.selectableFields, old.selectableFields)) out.add("");
  for (const version of spec.versions) {
    const oldVersion = old.versions.find((v) => v.name === version.name);
    if (keeps(version.selectableFields, oldVersion?.selectableFields)) out.add(version.name);
  }
  return out;
}

/** The options of an update from `oldObj` (whose internal spec is `old`). */
export function updateOptions(spec: InternalSpec, old: InternalSpec, oldObj: unknown): DefinitionOptions {
  const reviewVersions = old.conversion?.conversionReviewVersions ?? [];
  return {
    requireRecognizedConversionReviewVersion:
      old.conversion === undefined ||
      reviewVersions.length === 0 ||
      reviewVersions.some((v) => v === "v1" || v === "v1beta1"),
    requireImmutableNames: isEstablished(oldObj),
    requireOpenAPISchema:
      old.validation?.openAPIV3Schema !== undefined ||
      old.versions.every((v) => v.schema?.openAPIV3Schema !== undefined),
    requireValidPropertyType: !anySchemaHas(
      old,
      (s) => s.type !== undefined && s.type !== "" && !openapiTypes.has(s.type),
    ),
    requireStructuralSchema: !allSchemas(old).some(nonStructural),
    requirePrunedDefaults: !allSchemas(old).some(hasUnprunedDefaults),
    requireAtomicSetType: !anySchemaHas(old, hasNonAtomicSetItems),
    requireMapListKeysMapSetValidation: !anySchemaHas(old, (s) => mapListKeysMapSetErrors(s, "").length > 0),
    allowInvalidCABundle: allowInvalidCABundle(oldObj, old),
    versionsWithUnchangedSchemas: unchangedSchemaVersions(spec, old),
    allowTooManySelectableFields: tooManySelectableFieldsAllowed(spec, old),
  };
}
