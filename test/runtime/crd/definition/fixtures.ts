// CustomResourceDefinitions for the definition tests: a valid one to start from, and the errors of a
// create or update through the strategy's defaulting, preparation and validation, formatted as kube
// prints them.
import { defaultDefinition } from "../../../../runtime/crd/definition/defaults.js";
import { recordStorageVersion } from "../../../../runtime/crd/definition/stored-versions.js";
import {
  validateDefinition,
  validateDefinitionStatus,
  validateDefinitionUpdate,
} from "../../../../runtime/crd/definition/validate-definition.js";
import { formatFieldError } from "../../../../runtime/errors/format-field-error.js";

export type Json = Record<string, unknown>;

export function schemaOf(properties: Json = {}): Json {
  return { type: "object", properties: { spec: { type: "object", properties } } };
}

/** widgets.example.com with one version v1 whose schema is `schema`. */
export function definition(schema: Json = schemaOf({ size: { type: "integer" } }), spec: Json = {}): Json {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "widgets.example.com" },
    spec: {
      group: "example.com",
      scope: "Namespaced",
      names: { plural: "widgets", singular: "widget", kind: "Widget", listKind: "WidgetList" },
      versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: schema } }],
      ...spec,
    },
  };
}

/** The spec of a definition, to change in place. */
export function specOf(crd: Json): Json {
  return crd.spec as Json;
}

export function versionsOf(crd: Json): Json[] {
  return specOf(crd).versions as Json[];
}

export function createErrors(crd: Json): string[] {
  defaultDefinition(crd);
  delete crd.status;
  recordStorageVersion(crd);
  return validateDefinition(crd).map(formatFieldError);
}

export function updateErrors(crd: Json, old: Json): string[] {
  defaultDefinition(crd);
  crd.status = structuredClone(old.status);
  recordStorageVersion(crd);
  return validateDefinitionUpdate(crd, old).map(formatFieldError);
}

export function statusErrors(crd: Json): string[] {
  return validateDefinitionStatus(crd).map(formatFieldError);
}

/** A definition as a create stores it. */
export function stored(crd: Json): Json {
  createErrors(crd);
  return crd;
}
