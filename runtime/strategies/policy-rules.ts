// The rule list of a Role or ClusterRole as kube-apiserver's RBAC validation checks it
// (validatePolicyRule): verbs always, then either resources with API groups or non-resource URLs.
import { type FieldError, invalid, required } from "../errors/field-error.js";
import { child, index } from "../errors/field-path.js";
import { asObject, type JsonObject, listItems } from "../validation/walk.js";

function count(value: unknown): number {
  return listItems(value).length;
}

function validatePolicyRule(rule: JsonObject, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  // An absent list is the schema's to report; an empty one is kube's.
  if (Array.isArray(rule.verbs) && rule.verbs.length === 0) {
    errs.push(required(child(path, "verbs"), "verbs must contain at least one value"));
  }
  if (count(rule.nonResourceURLs) > 0) {
    const urlsPath = child(path, "nonResourceURLs");
    if (namespaced)
      errs.push(invalid(urlsPath, rule.nonResourceURLs, "namespaced rules cannot apply to non-resource URLs"));
    if (count(rule.apiGroups) > 0 || count(rule.resources) > 0 || count(rule.resourceNames) > 0) {
      errs.push(
        invalid(urlsPath, rule.nonResourceURLs, "rules cannot apply to both regular resources and non-resource URLs"),
      );
    }
    return errs;
  }
  if (count(rule.apiGroups) === 0) {
    errs.push(required(child(path, "apiGroups"), "resource rules must supply at least one api group"));
  }
  if (count(rule.resources) === 0) {
    errs.push(required(child(path, "resources"), "resource rules must supply at least one resource"));
  }
  if (count(rule.resourceNames) > 0 && count(rule.resources) > 1) {
    errs.push(required(child(path, "resourceNames"), "resource names cannot apply to multiple resources"));
  }
  return errs;
}

/** `rules[i]` of a Role (`namespaced`) or ClusterRole. */
export function validatePolicyRules(rules: unknown, namespaced: boolean): FieldError[] {
  return listItems(rules).flatMap((rule, i) => validatePolicyRule(asObject(rule) ?? {}, namespaced, index("rules", i)));
}
