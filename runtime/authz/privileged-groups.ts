// kube-apiserver puts this authorizer before every configured one: members of system:masters may do
// everything, whatever RBAC or a webhook would say.

import type { Attributes, Authorizer, Decision, SubjectRules } from "../access/authorizer.js";
import { noOpinion } from "../access/authorizer.js";
import { mastersGroup, type UserInfo } from "../access/user-info.js";

const allowed: Decision = { decision: "allow", reason: "" };
const nothing: SubjectRules = { resourceRules: [], nonResourceRules: [], incomplete: false };

export class PrivilegedGroupAuthorizer implements Authorizer {
  constructor(private readonly groups: readonly string[] = [mastersGroup]) {}

  authorize(attributes: Attributes): Decision {
    return attributes.user.groups.some((g) => this.groups.includes(g)) ? allowed : noOpinion;
  }

  /** None: masters see their rules through the cluster-admin binding RBAC keeps for them, as in kube. */
  rulesFor(_user: UserInfo): SubjectRules {
    return nothing;
  }
}
