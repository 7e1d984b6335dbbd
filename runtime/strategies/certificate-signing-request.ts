// CertificateSigningRequests (kube's pkg/registry/certificates/certificates): a create records who asked
// (spec.username, uid, groups, extra, whatever the body says) and starts with an empty status; the spec never
// changes afterwards. The main resource changes only metadata; /status sets the certificate and conditions
// but keeps the stored Approved and Denied ones; /approval changes only the conditions. Both subresources
// stamp conditions with their update and transition times.
import type { UserInfo } from "../access/user-info.js";
import type { FieldError } from "../errors/field-error.js";
import type { KubeObject } from "../object/kube-object.js";
import { formatTime } from "../resources/timestamps.js";
import type { JsonObject } from "../validation/walk.js";
import {
  conditionsOf,
  specOf,
  statusOf,
  validateCertificateSigningRequest,
} from "./certificate-signing-request-validation.js";
import type { KindStrategy } from "./hook-request.js";

function recordRequester(spec: JsonObject, user: UserInfo | undefined): void {
  delete spec.username;
  delete spec.uid;
  delete spec.groups;
  delete spec.extra;
  if (user === undefined) return;
  if (user.name !== "") spec.username = user.name;
  if (user.uid !== undefined && user.uid !== "") spec.uid = user.uid;
  if (user.groups.length > 0) spec.groups = [...user.groups];
  const extra = user.extra ?? {};
  if (Object.keys(extra).length > 0) spec.extra = structuredClone(extra);
}

/** preserveConditionInstances: where the count of `type` is unchanged, the stored instances stay as they were. */
function keepConditionInstances(obj: KubeObject, old: KubeObject, type: string): void {
  const conditions = conditionsOf(obj);
  const stored = conditionsOf(old).filter((c) => c.type === type);
  const at = conditions.flatMap((c, i) => (c.type === type ? [i] : []));
  if (stored.length !== at.length) return;
  for (const [n, i] of at.entries()) conditions[i] = structuredClone(stored[n] as JsonObject);
  statusOf(obj).conditions = conditions;
}

/** populateConditionTimestamps: unset times become now, a transition keeps the stored one of the same state. */
function stampConditions(obj: KubeObject, old: KubeObject): void {
  const now = formatTime(new Date());
  const stored = conditionsOf(old);
  for (const condition of conditionsOf(obj)) {
    if (!condition.lastUpdateTime) condition.lastUpdateTime = now;
    if (!condition.lastTransitionTime) {
      const same = stored.find(
        (c) => c.type === condition.type && c.status === condition.status && Boolean(c.lastTransitionTime),
      );
      condition.lastTransitionTime = same?.lastTransitionTime ?? now;
    }
  }
}

function keepStatusFromOld(obj: KubeObject, old: KubeObject): void {
  if (old.status === undefined) delete obj.status;
  else obj.status = structuredClone(old.status);
}

export const strategy: KindStrategy = {
  objectSubresources: ["approval"],
  statusSubresources: ["approval"],
  tracksGeneration: false,
  // kube does not care what certificate requests are called.
  validateName: () => [],
  prepareForCreate(obj: KubeObject, user?: UserInfo): void {
    const spec = specOf(obj);
    recordRequester(spec, user);
    obj.spec = spec;
    obj.status = {};
  },
  prepareForUpdate(obj: KubeObject, old: KubeObject, subresource?: string): void {
    if (subresource === undefined) {
      obj.spec = structuredClone(old.spec);
      keepStatusFromOld(obj, old);
    } else if (subresource === "status") {
      keepConditionInstances(obj, old, "Approved");
      keepConditionInstances(obj, old, "Denied");
      stampConditions(obj, old);
    } else if (subresource === "approval") {
      stampConditions(obj, old);
      const conditions = statusOf(obj).conditions;
      keepStatusFromOld(obj, old);
      const status = statusOf(obj);
      if (conditions === undefined) delete status.conditions;
      else status.conditions = conditions;
      obj.status = status;
    }
  },
  validate(obj: KubeObject, old?: KubeObject, subresource?: string): FieldError[] {
    return validateCertificateSigningRequest(obj, old, subresource);
  },
};
