// LocalSubjectAccessReview (authorization.k8s.io/v1): a SubjectAccessReview confined to the namespace it
// is posted to, so that namespace admins may be granted it (kube's
// pkg/registry/authorization/localsubjectaccessreview).
import { invalid as invalidField } from "../errors/field-error.js";
import { invalid } from "../errors/status-error.js";
import { asObject } from "../validation/walk.js";
import { authorizationGroupKind, invalidStruct, metadataErrors } from "./access-review.js";
import type { KindStrategy } from "./hook-request.js";
import { answerSubjectReview, readSubjectSpec, subjectSpecErrors } from "./subject-access-review.js";

export const strategy: KindStrategy = {
  async answerCreate(obj, request) {
    const namespace = request.namespace ?? "";
    const spec = readSubjectSpec(asObject(obj.spec) ?? {});
    const errs = [
      ...subjectSpecErrors(spec),
      ...metadataErrors(obj, ["namespace"], "must be empty except for namespace"),
    ];
    const resource = spec.resourceAttributes;
    if (resource !== undefined && resource.namespace !== namespace) {
      errs.push(invalidField("spec.resourceAttributes.namespace", resource.namespace, "must match metadata.namespace"));
    }
    if (spec.nonResourceAttributes !== undefined) {
      errs.push(
        invalidStruct("spec.nonResourceAttributes", spec.nonResourceAttributes, "disallowed on this kind of request"),
      );
    }
    if (errs.length > 0) throw invalid(authorizationGroupKind, "", errs);
    return answerSubjectReview("LocalSubjectAccessReview", { namespace }, spec, request);
  },
};
