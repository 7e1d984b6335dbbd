// What the apiextensions server does to custom resource objects with their CRD version's openAPIV3Schema,
// compiled once per schema: pruning, defaulting, value validation, the schema CEL rules run against and
// the field table server-side apply walks. Per-request work is a walk of the object.
//
// A write runs, in kube's order: prune (decoding), default, then validate; a read from storage prunes
// and defaults again. The root's metadata is validated by the strategy (ValidateObjectMeta), and
// x-kubernetes-validations rules by the CEL validator over `celSchema`.

import type { ManagedSchema } from "../../apply/typed/managed-schema.js";
import { hasValidationRules, type StructuralSchema, withTypeAndObjectMeta } from "../../cel/rules/structural-schema.js";
import type { FieldError } from "../../errors/field-error.js";
import type { JsonObject } from "../../object/json-object.js";
import { managedSchemaOf } from "./apply-fields.js";
import { applyDefaults } from "./defaulting.js";
import { toStructuralSchema } from "./definition-structural-schema.js";
import { embeddedResourcesErrors } from "./embedded-resources.js";
import { listInvariantErrors } from "./list-invariants.js";
import { pruneCustomResource } from "./pruning.js";
import { schemaNode } from "./schema-node.js";
import { ratchetSchemaErrors } from "./schema-ratcheting.js";
import { compileValueValidator, valueErrors } from "./value-validation.js";

export interface CustomResourceSchema {
  /**
   * OpenAPI value validation of the whole object (kube-openapi's wording, paths from the top-level fields:
   * `spec.replicas`), then embedded resources' type and object metadata, then list-type uniqueness. With
   * `old` (an update) value errors ratchet, and list-type errors count only when `old` had none.
   */
  validate(obj: unknown, old?: unknown): FieldError[];
  /** Structural defaulting, in place. */
  default(obj: unknown): void;
  /** Drops what the schema does not declare, in place; returns the dropped paths (`spec.foo`, `metadata.bar`). */
  prune(obj: unknown): string[];
  /** The schema with apiVersion, kind and metadata as CEL sees them; set when any x-kubernetes-validations rule exists. */
  celSchema?: StructuralSchema;
  /** The field table for server-side apply. */
  fields: ManagedSchema;
}

export function customResourceSchema(openAPIV3Schema: JsonObject): CustomResourceSchema {
  const root = schemaNode(openAPIV3Schema);
  const values = compileValueValidator(openAPIV3Schema);
  const structural = toStructuralSchema(openAPIV3Schema);
  return {
    validate: (obj, old) => {
      const valueErrs = valueErrors(values, obj);
      if (old === undefined) {
        return [...valueErrs, ...embeddedResourcesErrors(obj, root), ...listInvariantErrors(obj, root)];
      }
      return [
        ...ratchetSchemaErrors(structural, obj, old, valueErrs),
        ...embeddedResourcesErrors(obj, root),
        ...(listInvariantErrors(old, root).length > 0 ? [] : listInvariantErrors(obj, root)),
      ];
    },
    default: (obj) => applyDefaults(obj, root),
    prune: (obj) => pruneCustomResource(obj, root),
    ...(hasValidationRules(structural) ? { celSchema: withTypeAndObjectMeta(structural) } : {}),
    fields: managedSchemaOf(root),
  };
}
