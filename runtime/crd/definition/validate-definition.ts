// A CustomResourceDefinition as kube-apiserver's apiextensions server validates it on create, update
// and status update (ValidateCustomResourceDefinition and its Update variants), beyond the metadata
// rules every kind shares (kapi's generic step): the name rule, the spec, status.acceptedNames,
// status.storedVersions, the approval annotation of protected groups and preserveUnknownFields.
import { type FieldError, invalid } from "../../errors/field-error.js";
import { asObject, type JsonObject } from "../../validation/walk.js";
import { validateApiApproval, validateDefinitionName, validateNames } from "./definition-names.js";
import { validateSpec, validateSpecUpdate } from "./definition-spec.js";
import { internalSpec, readNames } from "./internal-spec.js";
import { validateStoredVersions } from "./stored-versions.js";
import { createOptions, updateOptions } from "./validation-options.js";

function statusErrors(obj: JsonObject): FieldError[] {
  return validateNames(readNames(asObject(obj.status)?.acceptedNames), "status.acceptedNames");
}

function preserveUnknownFieldsErrors(spec: unknown, oldSpec: unknown): FieldError[] {
  if (asObject(oldSpec)?.preserveUnknownFields === true) return [];
  if (asObject(spec)?.preserveUnknownFields !== true) return [];
  const detail =
    "cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead";
  return [invalid("spec.preserveUnknownFields", true, detail)];
}

export function validateDefinition(obj: JsonObject): FieldError[] {
  const spec = internalSpec(obj.spec);
  return [
    ...validateDefinitionName(obj.metadata, spec),
    ...validateSpec(spec, createOptions),
    ...statusErrors(obj),
    ...validateStoredVersions(asObject(obj.status)?.storedVersions, spec.versions),
    ...validateApiApproval(spec.group, obj.metadata, undefined),
    ...preserveUnknownFieldsErrors(obj.spec, undefined),
  ];
}

export function validateDefinitionUpdate(obj: JsonObject, old: JsonObject): FieldError[] {
  const spec = internalSpec(obj.spec);
  const oldSpec = internalSpec(old.spec);
  return [
    ...validateSpecUpdate(spec, oldSpec, updateOptions(spec, oldSpec, old)),
    ...statusErrors(obj),
    ...validateStoredVersions(asObject(obj.status)?.storedVersions, spec.versions),
    ...validateApiApproval(spec.group, obj.metadata, old.metadata),
    ...preserveUnknownFieldsErrors(obj.spec, old.spec),
  ];
}

/** A status update checks only the accepted names (metadata is the generic step's). */
export function validateDefinitionStatus(obj: JsonObject): FieldError[] {
  return statusErrors(obj);
}
