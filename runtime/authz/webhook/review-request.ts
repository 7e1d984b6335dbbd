// The SubjectAccessReview an authorization webhook receives, as kube's webhook authorizer writes it: the
// v1 spec from the request's attributes (selectors as In/NotIn/Exists/DoesNotExist requirements, the
// others dropped since requirements only narrow), sent as v1 or v1beta1 (whose groups field is `group`);
// and the status read back from either version.
import type { Attributes } from "../../access/authorizer.js";

export type SubjectAccessReviewVersion = "v1" | "v1beta1";

interface SelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}

/** authorization/v1 SubjectAccessReviewSpec as Go marshals it (empty fields omitted). */
export interface SubjectAccessReviewSpec {
  resourceAttributes?: Record<string, unknown>;
  nonResourceAttributes?: { path?: string; verb?: string };
  user?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
  uid?: string;
}

export interface SubjectAccessReviewStatus {
  allowed: boolean;
  denied: boolean;
  reason: string;
  evaluationError: string;
}

const fieldOperators: Record<string, string> = { "=": "In", "!=": "NotIn" };
const labelOperators: Record<string, string> = {
  in: "In",
  "=": "In",
  "==": "In",
  notin: "NotIn",
  "!=": "NotIn",
  exists: "Exists",
  "!": "DoesNotExist",
};

function nonEmpty<T extends Record<string, unknown>>(fields: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(fields).filter(([, v]) => v !== "" && v !== undefined && !(Array.isArray(v) && v.length === 0)),
  ) as Partial<T>;
}

function fieldRequirements(a: Attributes): SelectorRequirement[] {
  return (a.fieldSelector?.requirements ?? []).flatMap((r) => {
    const operator = fieldOperators[r.operator];
    return operator === undefined ? [] : [{ key: r.field, operator, values: [r.value] }];
  });
}

function labelRequirements(a: Attributes): SelectorRequirement[] {
  return (a.labelSelector?.requirements ?? []).flatMap((r) => {
    const operator = labelOperators[r.operator];
    if (operator === undefined) return [];
    return [{ key: r.key, operator, ...(r.values.length > 0 ? { values: [...r.values] } : {}) }];
  });
}

export function subjectAccessReviewSpec(a: Attributes): SubjectAccessReviewSpec {
  const user = nonEmpty({ user: a.user.name, groups: a.user.groups, uid: a.user.uid ?? "" });
  const extra = a.user.extra !== undefined && Object.keys(a.user.extra).length > 0 ? { extra: a.user.extra } : {};
  if (!a.resourceRequest) {
    return { nonResourceAttributes: nonEmpty({ path: a.path, verb: a.verb }), ...user, ...extra };
  }
  const fields = fieldRequirements(a);
  const labels = labelRequirements(a);
  return {
    resourceAttributes: {
      ...nonEmpty({
        namespace: a.namespace,
        verb: a.verb,
        group: a.apiGroup,
        version: a.apiVersion,
        resource: a.resource,
        subresource: a.subresource,
        name: a.name,
      }),
      ...(fields.length > 0 ? { fieldSelector: { requirements: fields } } : {}),
      ...(labels.length > 0 ? { labelSelector: { requirements: labels } } : {}),
    },
    ...user,
    ...extra,
  };
}

/** The request body for a webhook of the given version. */
export function subjectAccessReviewBody(spec: SubjectAccessReviewSpec, version: SubjectAccessReviewVersion): unknown {
  const { groups, ...rest } = spec;
  const body = version === "v1" ? spec : { ...rest, ...(groups === undefined ? {} : { group: groups }) };
  return {
    apiVersion: `authorization.k8s.io/${version}`,
    kind: "SubjectAccessReview",
    metadata: { creationTimestamp: null },
    spec: body,
    status: { allowed: false },
  };
}

/** The status of a webhook's answer; an answer without one is an error. */
export function subjectAccessReviewStatus(body: unknown): SubjectAccessReviewStatus {
  const status = (body as { status?: unknown } | undefined)?.status;
  if (typeof status !== "object" || status === null || Array.isArray(status)) {
    throw new Error("the webhook's SubjectAccessReview has no status");
  }
  const s = status as Record<string, unknown>;
  return {
    allowed: s.allowed === true,
    denied: s.denied === true,
    reason: typeof s.reason === "string" ? s.reason : "",
    evaluationError: typeof s.evaluationError === "string" ? s.evaluationError : "",
  };
}
