// Which requests a webhook's rules select, as kube's webhook rule matcher reads them: operations, groups,
// versions and resources (with `*` and `resource/subresource`), and scope, where a Namespace counts as
// cluster-scoped and anything else by whether the request has a namespace.
import type { Operation } from "../admission.js";

export interface WebhookRule {
  operations?: string[];
  apiGroups?: string[];
  apiVersions?: string[];
  resources?: string[];
  scope?: string;
}

/** The request as a rule sees it, at the version it is matched at. */
export interface RuleTarget {
  operation: Operation;
  group: string;
  version: string;
  resource: string;
  subresource: string;
  /** The request's namespace, "" for none. */
  namespace: string;
}

function exactOrWildcard(items: readonly string[] | undefined, value: string): boolean {
  return (items ?? []).some((item) => item === "*" || item === value);
}

function isNamespaceResource(t: RuleTarget): boolean {
  return t.group === "" && t.version === "v1" && t.resource === "namespaces";
}

function scopeMatches(scope: string | undefined, t: RuleTarget): boolean {
  switch (scope ?? "*") {
    case "*":
      return true;
    case "Namespaced":
      return !isNamespaceResource(t) && t.namespace !== "";
    case "Cluster":
      return isNamespaceResource(t) || t.namespace === "";
    default:
      return false;
  }
}

function resourceMatches(resources: readonly string[] | undefined, t: RuleTarget): boolean {
  return (resources ?? []).some((entry) => {
    const slash = entry.indexOf("/");
    const resource = slash < 0 ? entry : entry.slice(0, slash);
    const subresource = slash < 0 ? "" : entry.slice(slash + 1);
    return (resource === "*" || resource === t.resource) && (subresource === "*" || subresource === t.subresource);
  });
}

export function ruleMatches(rule: WebhookRule, t: RuleTarget): boolean {
  return (
    scopeMatches(rule.scope, t) &&
    exactOrWildcard(rule.operations, t.operation) &&
    exactOrWildcard(rule.apiGroups, t.group) &&
    exactOrWildcard(rule.apiVersions, t.version) &&
    resourceMatches(rule.resources, t)
  );
}

const exemptKinds: ReadonlySet<string> = new Set([
  "ValidatingWebhookConfiguration",
  "MutatingWebhookConfiguration",
  "ValidatingAdmissionPolicy",
  "ValidatingAdmissionPolicyBinding",
  "MutatingAdmissionPolicy",
  "MutatingAdmissionPolicyBinding",
]);

/** kube's IsExemptAdmissionConfigurationResource: webhooks never see writes of admission's own configuration. */
export function isExemptConfigurationKind(group: string, kind: string): boolean {
  return group === "admissionregistration.k8s.io" && exemptKinds.has(kind);
}
