// SelfSubjectRulesReview (authorization.k8s.io/v1): what may I do in this namespace? The authorizer chain
// lists the caller's rules (`kubectl auth can-i --list`); the answer is incomplete when a member cannot list
// its own (kube's pkg/registry/authorization/selfsubjectrulesreview).
import type { NonResourceRule, ResourceRule } from "../access/authorizer.js";
import { badRequest } from "../errors/status-error.js";
import { asObject } from "../validation/walk.js";
import { authorizationApiVersion } from "./access-review.js";
import type { KindStrategy } from "./hook-request.js";
import { text } from "./review-fields.js";

/** A ResourceRule as Go encodes it: verbs always, the other lists when not empty. */
function resourceRuleJson(rule: ResourceRule) {
  return {
    verbs: rule.verbs,
    ...(rule.apiGroups.length > 0 && { apiGroups: rule.apiGroups }),
    ...(rule.resources.length > 0 && { resources: rule.resources }),
    ...(rule.resourceNames.length > 0 && { resourceNames: rule.resourceNames }),
  };
}

function nonResourceRuleJson(rule: NonResourceRule) {
  return { verbs: rule.verbs, ...(rule.nonResourceURLs.length > 0 && { nonResourceURLs: rule.nonResourceURLs }) };
}

export const strategy: KindStrategy = {
  async answerCreate(obj, request) {
    const namespace = text(asObject(obj.spec)?.namespace);
    if (namespace === "") throw badRequest("no namespace on request");
    const rules = await request.access.authorizer.rulesFor(request.user, namespace);
    // A new object: kube answers neither the metadata nor the spec it was sent.
    return {
      kind: "SelfSubjectRulesReview",
      apiVersion: authorizationApiVersion,
      metadata: {},
      spec: {},
      status: {
        resourceRules: rules.resourceRules.map(resourceRuleJson),
        nonResourceRules: rules.nonResourceRules.map(nonResourceRuleJson),
        incomplete: rules.incomplete,
        ...(rules.evaluationError !== undefined &&
          rules.evaluationError !== "" && { evaluationError: rules.evaluationError }),
      },
    };
  },
};
