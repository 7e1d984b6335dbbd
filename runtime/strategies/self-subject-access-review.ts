// SelfSubjectAccessReview (authorization.k8s.io/v1): may I do this? The caller's own user is checked, as
// `kubectl auth can-i` asks (kube's pkg/registry/authorization/selfsubjectaccessreview).
import { invalid } from "../errors/status-error.js";
import { asObject } from "../validation/walk.js";
import {
  attributeChoiceErrors,
  attributesJson,
  authorizationApiVersion,
  authorizationGroupKind,
  metadataErrors,
  readAttributes,
  resourceAttributeErrors,
  reviewAttributes,
  reviewStatus,
} from "./access-review.js";
import type { KindStrategy } from "./hook-request.js";

export const strategy: KindStrategy = {
  async answerCreate(obj, request) {
    const attributes = readAttributes(asObject(obj.spec) ?? {});
    const errs = [
      ...attributeChoiceErrors(attributes),
      ...resourceAttributeErrors(attributes),
      ...metadataErrors(obj, [], "must be empty"),
    ];
    if (errs.length > 0) throw invalid(authorizationGroupKind, "", errs);
    const status = await reviewStatus(request.access.authorizer, reviewAttributes(request.user, attributes));
    return {
      kind: "SelfSubjectAccessReview",
      apiVersion: authorizationApiVersion,
      metadata: {},
      spec: attributesJson(attributes),
      status,
    };
  },
};
