// SubjectAccessReview (authorization.k8s.io/v1): may this user, with these groups, uid and extra, do this?
// Answered by the server's authorizer and never stored (kube's pkg/registry/authorization/subjectaccessreview).
import type { UserInfo } from "../access/user-info.js";
import { type FieldError, invalid as invalidField } from "../errors/field-error.js";
import { invalid } from "../errors/status-error.js";
import type { KubeObject } from "../object/kube-object.js";
import { asObject, type JsonObject } from "../validation/walk.js";
import {
  attributeChoiceErrors,
  attributesJson,
  authorizationApiVersion,
  authorizationGroupKind,
  metadataErrors,
  type ReviewAttributes,
  readAttributes,
  resourceAttributeErrors,
  reviewAttributes,
  reviewStatus,
} from "./access-review.js";
import type { HookRequest, KindStrategy } from "./hook-request.js";
import { omitEmpty, text, texts } from "./review-fields.js";

/** A SubjectAccessReviewSpec: the attributes and whom they are asked for. */
export interface SubjectSpec extends ReviewAttributes {
  user: string;
  groups: string[];
  uid: string;
  extra?: Record<string, string[]>;
}

export function readSubjectSpec(spec: JsonObject): SubjectSpec {
  const extra = asObject(spec.extra);
  return {
    ...readAttributes(spec),
    user: text(spec.user),
    groups: texts(spec.groups),
    uid: text(spec.uid),
    // Go's map: keys in sorted order, as it encodes them.
    ...(extra && {
      extra: Object.fromEntries(
        Object.keys(extra)
          .sort()
          .map((k) => [k, texts(extra[k])]),
      ),
    }),
  };
}

/** ValidateSubjectAccessReviewSpec. */
export function subjectSpecErrors(spec: SubjectSpec): FieldError[] {
  const noSubject =
    spec.user === "" && spec.groups.length === 0
      ? [invalidField("spec.user", spec.user, "at least one of user or group must be specified")]
      : [];
  return [...attributeChoiceErrors(spec), ...noSubject, ...resourceAttributeErrors(spec)];
}

/** convertToUserInfoExtra and user.DefaultInfo: the user the review is about. */
function subject(spec: SubjectSpec): UserInfo {
  return {
    name: spec.user,
    groups: spec.groups,
    ...(spec.uid !== "" && { uid: spec.uid }),
    ...(spec.extra && { extra: spec.extra }),
  };
}

export function subjectSpecJson(spec: SubjectSpec): JsonObject {
  return {
    ...attributesJson(spec),
    ...omitEmpty("user", spec.user),
    ...(spec.groups.length > 0 && { groups: spec.groups }),
    ...(spec.extra && Object.keys(spec.extra).length > 0 && { extra: spec.extra }),
    ...omitEmpty("uid", spec.uid),
  };
}

/** Authorizes the spec's subject and answers with the review, its status filled in. */
export async function answerSubjectReview(
  kind: string,
  metadata: JsonObject,
  spec: SubjectSpec,
  request: HookRequest,
): Promise<KubeObject> {
  const status = await reviewStatus(request.access.authorizer, reviewAttributes(subject(spec), spec));
  return { kind, apiVersion: authorizationApiVersion, metadata, spec: subjectSpecJson(spec), status };
}

export const strategy: KindStrategy = {
  async answerCreate(obj, request) {
    const spec = readSubjectSpec(asObject(obj.spec) ?? {});
    const errs = [...subjectSpecErrors(spec), ...metadataErrors(obj, [], "must be empty")];
    if (errs.length > 0) throw invalid(authorizationGroupKind, "", errs);
    return answerSubjectReview("SubjectAccessReview", {}, spec, request);
  },
};
