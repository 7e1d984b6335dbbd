// The environment admission policies compile in: kube-apiserver's base environment (the Kubernetes
// libraries of its compatibility version); the admission variables are declared per policy.
import { kubernetesBaseEnv } from "../../cel/kubernetes/base-environment.js";
import type { CelAuthorizer } from "../../cel/library/kubernetes/authorizer.js";
import type { PolicyEnvironment } from "./compile-policy.js";

export function admissionPolicyEnvironment(): PolicyEnvironment {
  return { base: kubernetesBaseEnv() };
}

/**
 * The authorizer expressions see until the authorization chain exists: members of system:masters are
 * allowed everything, and any other user gets no opinion.
 */
export const mastersAuthorizer: CelAuthorizer = {
  authorize: (attributes) =>
    attributes.user.groups.includes("system:masters")
      ? { decision: "allow", reason: "" }
      : { decision: "noOpinion", reason: "no authorizer allows it" },
};
