// Whether one RBAC PolicyRule covers a request (kube's RuleAllows): every verb, group, resource and name
// list must admit the request; `*` admits everything, `*/<subresource>` that subresource of any resource,
// an empty resourceNames any name, and a non-resource URL ending in `*` every path it prefixes.
import type { Attributes } from "../../access/authorizer.js";

/** rbac/v1 PolicyRule as stored (absent lists read as empty). */
export interface PolicyRule {
  verbs?: readonly string[];
  apiGroups?: readonly string[];
  resources?: readonly string[];
  resourceNames?: readonly string[];
  nonResourceURLs?: readonly string[];
}

const all = "*";

export function verbMatches(rule: PolicyRule, verb: string): boolean {
  return (rule.verbs ?? []).some((v) => v === all || v === verb);
}

export function apiGroupMatches(rule: PolicyRule, group: string): boolean {
  return (rule.apiGroups ?? []).some((g) => g === all || g === group);
}

/** `combined` is `resource` or `resource/subresource`. */
export function resourceMatches(rule: PolicyRule, combined: string, subresource: string): boolean {
  return (rule.resources ?? []).some(
    (r) => r === all || r === combined || (subresource !== "" && r === `*/${subresource}`),
  );
}

export function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(name);
}

export function nonResourceUrlMatches(rule: PolicyRule, path: string): boolean {
  return (rule.nonResourceURLs ?? []).some(
    (url) => url === all || url === path || (url.endsWith("*") && path.startsWith(url.replace(/\*+$/, ""))),
  );
}

export function ruleAllows(attributes: Attributes, rule: PolicyRule): boolean {
  if (!verbMatches(rule, attributes.verb)) return false;
  if (!attributes.resourceRequest) return nonResourceUrlMatches(rule, attributes.path);
  const combined =
    attributes.subresource === "" ? attributes.resource : `${attributes.resource}/${attributes.subresource}`;
  return (
    apiGroupMatches(rule, attributes.apiGroup) &&
    resourceMatches(rule, combined, attributes.subresource) &&
    resourceNameMatches(rule, attributes.name)
  );
}

export function rulesAllow(attributes: Attributes, rules: readonly PolicyRule[]): boolean {
  return rules.some((rule) => ruleAllows(attributes, rule));
}
