// The authorizer chain (k8s.io/apiserver's union authorizer): asked in order, the first Allow or Deny
// decides; when every member has no opinion, the reasons and errors of all are joined and the request is
// refused. Rules are the union of every member's, incomplete when any member's are.

import type { Attributes, Authorizer, Decision, SubjectRules } from "../access/authorizer.js";
import type { UserInfo } from "../access/user-info.js";

function joined(parts: string[]): string | undefined {
  return parts.length === 0 ? undefined : parts.join("\n");
}

export class UnionAuthorizer implements Authorizer {
  constructor(private readonly members: readonly Authorizer[]) {}

  authorize(attributes: Attributes): Decision | Promise<Decision> {
    const reasons: string[] = [];
    const errors: string[] = [];
    const step = (i: number): Decision | Promise<Decision> => {
      for (let k = i; k < this.members.length; k++) {
        const answer = (this.members[k] as Authorizer).authorize(attributes);
        if (answer instanceof Promise) {
          return answer.then((d) => (this.decides(d, reasons, errors) ? d : step(k + 1)));
        }
        if (this.decides(answer, reasons, errors)) return answer;
      }
      const error = joined(errors);
      return { decision: "noOpinion", reason: reasons.join("\n"), ...(error === undefined ? {} : { error }) };
    };
    return step(0);
  }

  private decides(d: Decision, reasons: string[], errors: string[]): boolean {
    if (d.decision !== "noOpinion") return true;
    if (d.reason !== "") reasons.push(d.reason);
    if (d.error !== undefined) errors.push(d.error);
    return false;
  }

  async rulesFor(user: UserInfo, namespace: string): Promise<SubjectRules> {
    const out: SubjectRules = { resourceRules: [], nonResourceRules: [], incomplete: false };
    const errors: string[] = [];
    for (const member of this.members) {
      const rules = await member.rulesFor(user, namespace);
      out.resourceRules.push(...rules.resourceRules);
      out.nonResourceRules.push(...rules.nonResourceRules);
      if (rules.incomplete) out.incomplete = true;
      if (rules.evaluationError !== undefined) errors.push(rules.evaluationError);
    }
    const error = joined(errors);
    return error === undefined ? out : { ...out, evaluationError: error };
  }
}
