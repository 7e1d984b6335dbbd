// CustomResourceDefinitions (apiextensions.k8s.io/v1): kube's apiextensions defaulting and validation
// (runtime/crd/definition/), the storage version recorded in status.storedVersions on every write of the
// spec, and no PUT without a resourceVersion, as kube's CRD strategy.
import { cleanupPending, markForCleanup } from "../crd/cleanup-finalizer.js";
import { defaultDefinition } from "../crd/definition/defaults.js";
import { recordStorageVersion } from "../crd/definition/stored-versions.js";
import {
  validateDefinition,
  validateDefinitionStatus,
  validateDefinitionUpdate,
} from "../crd/definition/validate-definition.js";
import type { FieldError } from "../errors/field-error.js";
import type { KubeObject } from "../object/kube-object.js";
import type { Strategy } from "../registry/strategy.js";

export const strategy: Strategy = {
  default(obj: KubeObject): void {
    defaultDefinition(obj);
  },
  prepareForCreate(obj: KubeObject): void {
    recordStorageVersion(obj);
  },
  prepareForUpdate(obj: KubeObject, _old: KubeObject, subresource?: string): void {
    if (subresource === undefined) recordStorageVersion(obj);
  },
  validate(obj: KubeObject, old?: KubeObject, subresource?: string): FieldError[] {
    if (old === undefined) return validateDefinition(obj);
    return subresource === "status" ? validateDefinitionStatus(obj) : validateDefinitionUpdate(obj, old);
  },
  allowUnconditionalUpdate: false,
  genericObjectMeta: true,
  prepareForDelete: markForCleanup,
  deletionHeld: cleanupPending,
};
