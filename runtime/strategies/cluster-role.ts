// ClusterRoles (rbac.authorization.k8s.io/v1): their rules, and an aggregation rule that names at least
// one valid label selector; a PUT creates a missing cluster role, as kube's RBAC strategies allow.
import { type FieldError, invalid, required } from "../errors/field-error.js";
import { index } from "../errors/field-path.js";
import type { KubeObject } from "../object/kube-object.js";
import type { Strategy } from "../registry/strategy.js";
import { labelSelectorFromObject, validateLabelSelector } from "../selection/label-selector-object.js";
import { asObject, listItems } from "../validation/walk.js";
import { labelSelectorObject } from "./decoded-label-selector.js";
import { validatePolicyRules } from "./policy-rules.js";

function validateAggregationRule(rule: unknown): FieldError[] {
  const aggregation = asObject(rule);
  if (aggregation === undefined) return [];
  const path = "aggregationRule.clusterRoleSelectors";
  const selectors = listItems(aggregation.clusterRoleSelectors);
  if (selectors.length === 0) {
    return [required(path, "at least one clusterRoleSelector required if aggregationRule is non-nil")];
  }
  return selectors.flatMap((selector, i) => {
    const ps = labelSelectorObject(selector);
    const errs = validateLabelSelector(ps, index(path, i));
    if (!labelSelectorFromObject(ps).ok) errs.push(invalid(index(path, i), selector, "invalid label selector."));
    return errs;
  });
}

export const strategy: Strategy = {
  validate(obj: KubeObject): FieldError[] {
    return [...validatePolicyRules(obj.rules, false), ...validateAggregationRule(obj.aggregationRule)];
  },
  allowCreateOnUpdate: true,
};
