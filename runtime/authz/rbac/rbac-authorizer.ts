// kube's RBAC authorizer: a request is allowed by the first rule, among those the user holds through
// ClusterRoleBindings and the request namespace's RoleBindings, that covers it; otherwise RBAC has no
// opinion, and says why only when role references failed to resolve. RBAC never denies.

import type {
  Attributes,
  Authorizer,
  Decision,
  NonResourceRule,
  ResourceRule,
  SubjectRules,
} from "../../access/authorizer.js";
import type { UserInfo } from "../../access/user-info.js";
import { aggregateMessage } from "../../errors/aggregate.js";
import type { RbacIndex } from "./rbac-index.js";
import { type PolicyRule, ruleAllows } from "./rule-matches.js";
import { describeSource, RuleResolver, resolutionMessage } from "./rule-resolver.js";

function list(values: readonly string[] | undefined): string[] {
  return [...(values ?? [])];
}

/** SelfSubjectRulesReview's split: a rule with resources is a resource rule, one with URLs a non-resource rule. */
function splitRules(rules: readonly PolicyRule[]): Pick<SubjectRules, "resourceRules" | "nonResourceRules"> {
  const resourceRules: ResourceRule[] = [];
  const nonResourceRules: NonResourceRule[] = [];
  for (const rule of rules) {
    if ((rule.resources ?? []).length > 0) {
      resourceRules.push({
        verbs: list(rule.verbs),
        apiGroups: list(rule.apiGroups),
        resources: list(rule.resources),
        resourceNames: list(rule.resourceNames),
      });
    }
    if ((rule.nonResourceURLs ?? []).length > 0) {
      nonResourceRules.push({ verbs: list(rule.verbs), nonResourceURLs: list(rule.nonResourceURLs) });
    }
  }
  return { resourceRules, nonResourceRules };
}

export class RbacAuthorizer implements Authorizer {
  readonly resolver: RuleResolver;

  constructor(index: RbacIndex) {
    this.resolver = new RuleResolver(index);
  }

  authorize(attributes: Attributes): Decision {
    let reason: string | undefined;
    const errors: string[] = [];
    this.resolver.visitRulesFor(attributes.user, attributes.namespace, (source, rule, error) => {
      if (source !== undefined && rule !== undefined && ruleAllows(attributes, rule)) {
        reason = `RBAC: allowed by ${describeSource(source)}`;
        return false;
      }
      if (error !== undefined) errors.push(resolutionMessage(error, "lister"));
      return true;
    });
    if (reason !== undefined) return { decision: "allow", reason };
    return { decision: "noOpinion", reason: errors.length === 0 ? "" : `RBAC: ${aggregateMessage(errors)}` };
  }

  /** As kube: never incomplete; roles that failed to resolve are the evaluation error. */
  rulesFor(user: UserInfo, namespace: string): SubjectRules {
    const { rules, errors } = this.resolver.rulesFor(user, namespace);
    const out: SubjectRules = { ...splitRules(rules), incomplete: false };
    if (errors.length > 0) out.evaluationError = aggregateMessage(errors.map((e) => resolutionMessage(e, "lister")));
    return out;
  }
}
