// Whether a FlowSchema's rules match a request, as kube-apiserver's APF classifier decides: a rule matches
// when one of its subjects names the user, and then one of its resource rules (for resource requests) or
// non-resource rules (for the rest) covers the request. `*` alone in a list matches everything.
import type {
  FlowSchema,
  NonResourcePolicyRule,
  PolicyRulesWithSubjects,
  ResourcePolicyRule,
  Subject,
} from "../../generated/flowcontrol.apiserver.k8s.io/v1/types.js";
import type { UserInfo } from "../access/user-info.js";
import type { RequestInfo } from "../routing/request-info.js";

const serviceAccountPrefix = "system:serviceaccount:";

function listMatches(value: string, list: readonly string[] | undefined): boolean {
  if (list === undefined) return false;
  if (list.length === 1 && list[0] === "*") return true;
  return list.includes(value);
}

function subjectMatches(user: UserInfo, subject: Subject): boolean {
  switch (subject.kind) {
    case "User":
      return subject.user !== undefined && (subject.user.name === "*" || subject.user.name === user.name);
    case "Group":
      if (subject.group === undefined) return false;
      return subject.group.name === "*" || user.groups.includes(subject.group.name);
    case "ServiceAccount": {
      const account = subject.serviceAccount;
      if (account === undefined) return false;
      if (account.name === "*") return user.name.startsWith(`${serviceAccountPrefix}${account.namespace}:`);
      return user.name === `${serviceAccountPrefix}${account.namespace}:${account.name}`;
    }
    default:
      return false;
  }
}

function resourceRuleMatches(info: RequestInfo, rule: ResourcePolicyRule): boolean {
  if (!listMatches(info.verb, rule.verbs)) return false;
  const resource = info.subresource === "" ? info.resource : `${info.resource}/${info.subresource}`;
  if (!listMatches(resource, rule.resources)) return false;
  if (!listMatches(info.group, rule.apiGroups)) return false;
  if (info.namespace === "") return rule.clusterScope === true;
  return listMatches(info.namespace, rule.namespaces);
}

/** `*` matches every path; `/apis/*` every path under /apis/; any other entry only itself. */
function urlMatches(urls: readonly string[], path: string): boolean {
  for (const url of urls) {
    if (url === "*" || url === path) return true;
    let prefix = url.endsWith("*") ? url.slice(0, -1) : url;
    if (!prefix.endsWith("/")) prefix += "/";
    if (path.startsWith(prefix)) return true;
  }
  return false;
}

function nonResourceRuleMatches(info: RequestInfo, rule: NonResourcePolicyRule): boolean {
  return listMatches(info.verb, rule.verbs) && urlMatches(rule.nonResourceURLs, info.path);
}

function policyRuleMatches(user: UserInfo, info: RequestInfo, rule: PolicyRulesWithSubjects): boolean {
  if (!rule.subjects.some((subject) => subjectMatches(user, subject))) return false;
  if (info.isResourceRequest) return (rule.resourceRules ?? []).some((r) => resourceRuleMatches(info, r));
  return (rule.nonResourceRules ?? []).some((r) => nonResourceRuleMatches(info, r));
}

export function flowSchemaMatches(schema: FlowSchema, user: UserInfo, info: RequestInfo): boolean {
  return (schema.spec?.rules ?? []).some((rule) => policyRuleMatches(user, info, rule));
}

/** The flow a request belongs to within its schema: by user, by namespace, or one flow for all. */
export function flowDistinguisher(schema: FlowSchema, user: UserInfo, info: RequestInfo): string {
  const method = schema.spec?.distinguisherMethod?.type;
  if (method === "ByUser") return user.name;
  if (method === "ByNamespace") return info.namespace;
  return "";
}
