// Roles (rbac.authorization.k8s.io/v1): their rules may not name non-resource URLs; a PUT creates a
// missing role, as kube's RBAC strategies allow.
import type { FieldError } from "../errors/field-error.js";
import type { KubeObject } from "../object/kube-object.js";
import type { Strategy } from "../registry/strategy.js";
import { validatePolicyRules } from "./policy-rules.js";

export const strategy: Strategy = {
  validate(obj: KubeObject): FieldError[] {
    return validatePolicyRules(obj.rules, true);
  },
  allowCreateOnUpdate: true,
};
