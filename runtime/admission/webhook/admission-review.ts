// The AdmissionReview a webhook is sent (admission.k8s.io/v1 or v1beta1, the first of its
// admissionReviewVersions kapi knows) and the checks kube makes of the one it answers with.
import type { UserInfo } from "../../access/user-info.js";
import { isJsonObject } from "../../object/json-object.js";
import type { Operation } from "../admission.js";

export type ReviewVersion = "v1" | "v1beta1";

/** The first version kapi knows among those the webhook accepts. */
export function reviewVersionOf(accepted: readonly string[] | undefined): ReviewVersion | undefined {
  return (accepted ?? []).find((v): v is ReviewVersion => v === "v1" || v === "v1beta1");
}

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

export interface GroupVersionResource {
  group: string;
  version: string;
  resource: string;
}

/** What the request says, at the version the webhook matched it at (kind, resource) and as sent (request*). */
export interface ReviewRequest {
  uid: string;
  kind: GroupVersionKind;
  resource: GroupVersionResource;
  subResource: string;
  requestKind: GroupVersionKind;
  requestResource: GroupVersionResource;
  requestSubResource: string;
  name: string;
  namespace: string;
  operation: Operation;
  user: UserInfo;
  object: unknown;
  oldObject: unknown;
  dryRun: boolean;
  options: Record<string, unknown> | null;
}

function nonEmpty<K extends string>(key: K, value: string): { [P in K]?: string } {
  return (value === "" ? {} : { [key]: value }) as { [P in K]?: string };
}

/** The review, with kube's field order and its omitted empty fields. */
export function admissionReview(version: ReviewVersion, r: ReviewRequest): Record<string, unknown> {
  const extra = r.user.extra ?? {};
  return {
    kind: "AdmissionReview",
    apiVersion: `admission.k8s.io/${version}`,
    request: {
      uid: r.uid,
      kind: r.kind,
      resource: r.resource,
      ...nonEmpty("subResource", r.subResource),
      requestKind: r.requestKind,
      requestResource: r.requestResource,
      ...nonEmpty("requestSubResource", r.requestSubResource),
      ...nonEmpty("name", r.name),
      ...nonEmpty("namespace", r.namespace),
      operation: r.operation,
      userInfo: {
        ...nonEmpty("username", r.user.name),
        ...nonEmpty("uid", r.user.uid ?? ""),
        ...(r.user.groups.length === 0 ? {} : { groups: r.user.groups }),
        ...(Object.keys(extra).length === 0 ? {} : { extra }),
      },
      object: r.object ?? null,
      oldObject: r.oldObject ?? null,
      dryRun: r.dryRun,
      options: r.options,
    },
  };
}

/** A webhook's answer as kube reads it; `patchType` is v1's name for it whatever the review version. */
export interface AdmissionResponse {
  allowed: boolean;
  patch?: Buffer;
  patchType: string;
  result: unknown;
  auditAnnotations: Record<string, string>;
  warnings: string[];
}

/** Why an answer is not one; kube reports it as `received invalid webhook response: <why>`. */
export class InvalidResponse extends Error {}

/** Go's encoding of []byte in JSON is base64; anything else fails decoding the whole review. */
function patchBytes(value: unknown): Buffer | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") {
    throw new Error(
      `json: cannot unmarshal ${typeof value} into Go struct field AdmissionResponse.response.patch of type []uint8`,
    );
  }
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(value) || value.length % 4 !== 0) {
    const bad = value.search(/[^A-Za-z0-9+/=]/);
    throw new Error(`illegal base64 data at input byte ${bad < 0 ? value.length : bad}`);
  }
  return Buffer.from(value, "base64");
}

function stringMap(value: unknown): Record<string, string> {
  if (!isJsonObject(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === "string"));
}

/**
 * The answer to a review of `version` with `uid` (kube's VerifyAdmissionResponse). Throws an InvalidResponse
 * with kube's text when the answer is not one; a body that is not a review at all throws a plain Error
 * (kube's decoding error, reported as a failure to call the webhook).
 */
export function verifyResponse(
  uid: string,
  mutating: boolean,
  version: ReviewVersion,
  body: unknown,
): AdmissionResponse {
  if (!isJsonObject(body)) throw new Error("the webhook's answer is not a JSON object");
  const response = body.response;
  const patch = isJsonObject(response) ? patchBytes(response.patch) : undefined;
  if (!isJsonObject(response)) throw new InvalidResponse("webhook response was absent");
  const common = {
    allowed: response.allowed === true,
    result: response.status,
    auditAnnotations: stringMap(response.auditAnnotations),
    warnings: Array.isArray(response.warnings)
      ? response.warnings.filter((w): w is string => typeof w === "string")
      : [],
  };
  if (version === "v1beta1") {
    // v1beta1 reviews have no required uid or patchType: a patch is a JSON patch.
    if (!mutating || patch === undefined || patch.length === 0) return { ...common, patchType: "" };
    return { ...common, patch, patchType: "JSONPatch" };
  }
  const responseUid = typeof response.uid === "string" ? response.uid : "";
  if (responseUid !== uid)
    throw new InvalidResponse(`expected response.uid=${JSON.stringify(uid)}, got ${JSON.stringify(responseUid)}`);
  const apiVersion = typeof body.apiVersion === "string" ? body.apiVersion : "";
  const kind = typeof body.kind === "string" ? body.kind : "";
  if (apiVersion !== "admission.k8s.io/v1" || kind !== "AdmissionReview") {
    throw new InvalidResponse(
      `expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got ${apiVersion}, Kind=${kind}`,
    );
  }
  const patchType = response.patchType;
  const hasPatch = patch !== undefined && patch.length > 0;
  if (!mutating) {
    if (hasPatch) throw new InvalidResponse("validating webhook may not return response.patch");
    if (patchType !== undefined && patchType !== null)
      throw new InvalidResponse("validating webhook may not return response.patchType");
    return { ...common, patchType: "" };
  }
  const typeGiven = patchType !== undefined && patchType !== null;
  if (hasPatch && !typeGiven) throw new InvalidResponse("webhook returned response.patch but not response.patchType");
  if (!hasPatch && typeGiven) throw new InvalidResponse("webhook returned response.patchType but not response.patch");
  if (!hasPatch) return { ...common, patchType: "" };
  const type = typeof patchType === "string" ? patchType : "";
  if (type === "") throw new InvalidResponse(`webhook returned invalid response.patchType of ""`);
  return { ...common, patch, patchType: type };
}
