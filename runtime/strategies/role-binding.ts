// RoleBindings (rbac.authorization.k8s.io/v1): a Role or ClusterRole that may not change, and subjects;
// a PUT creates a missing binding, as kube's RBAC strategies allow.
import type { FieldError } from "../errors/field-error.js";
import { defaultSubjects, validateBinding } from "./role-binding-validation.js";
import type { KubeObject, Strategy } from "./strategy.js";

export const strategy: Strategy = {
  default: defaultSubjects,
  validate(obj: KubeObject, old?: KubeObject): FieldError[] {
    return validateBinding(obj, old, true);
  },
  allowCreateOnUpdate: true,
};
