// The two fixed authorizers of `--authorization-mode` (k8s.io/apiserver's authorizerfactory): AlwaysAllow
// allows everything and lists `*` rules; AlwaysDeny has no opinion, with kube's reason, so a later
// authorizer may still allow and the request is otherwise refused.
import type { Attributes, Authorizer, Decision, SubjectRules } from "../access/authorizer.js";

const allowed: Decision = { decision: "allow", reason: "" };
const forbidden: Decision = { decision: "noOpinion", reason: "Everything is forbidden." };

export class AlwaysAllowAuthorizer implements Authorizer {
  authorize(_attributes: Attributes): Decision {
    return allowed;
  }

  rulesFor(): SubjectRules {
    return {
      resourceRules: [{ verbs: ["*"], apiGroups: ["*"], resources: ["*"], resourceNames: [] }],
      nonResourceRules: [{ verbs: ["*"], nonResourceURLs: ["*"] }],
      incomplete: false,
    };
  }
}

export class AlwaysDenyAuthorizer implements Authorizer {
  authorize(_attributes: Attributes): Decision {
    return forbidden;
  }

  rulesFor(): SubjectRules {
    return { resourceRules: [], nonResourceRules: [], incomplete: false };
  }
}
