// ClusterRoleBindings (rbac.authorization.k8s.io/v1): a ClusterRole that may not change, and subjects
// whose service accounts name their namespace; a PUT creates a missing binding, as kube's RBAC
// strategies allow.
import type { FieldError } from "../errors/field-error.js";
import type { KubeObject } from "../object/kube-object.js";
import type { Strategy } from "../registry/strategy.js";
import { defaultSubjects, validateBinding } from "./role-binding-validation.js";

export const strategy: Strategy = {
  default: defaultSubjects,
  validate(obj: KubeObject, old?: KubeObject): FieldError[] {
    return validateBinding(obj, old, false);
  },
  allowCreateOnUpdate: true,
};
