// kube's pkg/serviceaccount validator for bound tokens (the TokenRequest kind): the token must be within
// its lifetime (a minute's leeway either way), its account must still exist with the same uid, and the
// secret, pod or node it is bound to too, none deleted more than a minute ago. The node a pod-bound token
// names is reported, not checked.

import { AuthenticationError } from "../../access/authenticator.js";
import type { KubeObject } from "../../object/kube-object.js";
import type { ResourceApi } from "../../resources/resource-api.js";
import { type CoreResource, getObject, metaOf } from "./core-objects.js";

/** Who a verified token speaks for (apiserver's ServiceAccountInfo). */
export interface ServiceAccountInfo {
  namespace: string;
  name: string;
  uid: string;
  podName?: string;
  podUid?: string;
  nodeName?: string;
  nodeUid?: string;
  credentialId?: string;
}

/** go-jose's DefaultLeeway. */
export const leewayMs = 60_000;

export interface ValidationContext {
  resources: ResourceApi;
  now: Date;
}

interface Ref {
  name: string;
  uid: string;
}

function field(obj: Record<string, unknown>, key: string): string {
  const value = obj[key];
  if (value === undefined || value === null) return "";
  if (typeof value !== "string") throw new AuthenticationError(`json: cannot unmarshal claim ${key} into a string`);
  return value;
}

function refOf(value: unknown, claim: string): Ref | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "object" || Array.isArray(value)) {
    throw new AuthenticationError(`json: cannot unmarshal claim ${claim} into an object reference`);
  }
  const ref = value as Record<string, unknown>;
  return { name: field(ref, "name"), uid: field(ref, "uid") };
}

/** A NumericDate claim in milliseconds; undefined when absent. */
function dateOf(payload: Record<string, unknown>, claim: string): number | undefined {
  const value = payload[claim];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number") throw new AuthenticationError(`json: cannot unmarshal claim ${claim} into a date`);
  return value * 1000;
}

/** go-jose's Claims.Validate with the default leeway, worded as kube's validator reports it. */
function checkLifetime(payload: Record<string, unknown>, now: number): void {
  const nbf = dateOf(payload, "nbf");
  const exp = dateOf(payload, "exp");
  const iat = dateOf(payload, "iat");
  if (nbf !== undefined && now + leewayMs < nbf)
    throw new AuthenticationError("service account token is not valid yet");
  if (exp !== undefined && now - leewayMs > exp) throw new AuthenticationError("service account token has expired");
  if (iat !== undefined && now + leewayMs < iat) {
    throw new AuthenticationError("service account token is issued in the future");
  }
}

/** Deleted before `threshold`: a deletion younger than the leeway still lets the token through. */
export function deletedBefore(obj: KubeObject, threshold: number): boolean {
  const since = metaOf(obj).deletionTimestamp;
  return since !== undefined && Date.parse(since) < threshold;
}

/** The object, with any failure to read it reported as `failure` (or its own message when undefined). */
export async function lookUp(
  context: ValidationContext,
  resource: CoreResource,
  name: string,
  namespace: string | undefined,
  failure?: string,
): Promise<KubeObject> {
  try {
    return await getObject(context.resources, resource, name, namespace);
  } catch (error) {
    throw new AuthenticationError(failure ?? (error as Error).message);
  }
}

const invalidated = "service account token has been invalidated";

/** The bound object still there with the claimed uid and not long deleted; `kind` words the mismatch. */
async function checkBound(
  context: ValidationContext,
  resource: CoreResource,
  kind: string,
  ref: Ref,
  namespace: string | undefined,
): Promise<void> {
  const obj = await lookUp(context, resource, ref.name, namespace, invalidated);
  const uid = metaOf(obj).uid ?? "";
  if (uid !== ref.uid) {
    throw new AuthenticationError(`${kind} UID (${uid}) does not match service account ${kind} ref claim (${ref.uid})`);
  }
  if (deletedBefore(obj, context.now.getTime() - leewayMs)) throw new AuthenticationError(invalidated);
}

export async function validateBoundToken(
  payload: Record<string, unknown>,
  context: ValidationContext,
): Promise<ServiceAccountInfo> {
  const now = context.now.getTime();
  checkLifetime(payload, now);
  const raw = payload["kubernetes.io"];
  const claim = typeof raw === "object" && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const namespace = field(claim, "namespace");
  const account = refOf(claim.serviceaccount, "serviceaccount") ?? { name: "", uid: "" };
  const pod = refOf(claim.pod, "pod");
  const secret = refOf(claim.secret, "secret");
  const node = refOf(claim.node, "node");

  const serviceAccount = await lookUp(context, "serviceaccounts", account.name, namespace);
  const uid = metaOf(serviceAccount).uid ?? "";
  if (uid !== account.uid) {
    throw new AuthenticationError(`service account UID (${uid}) does not match claim (${account.uid})`);
  }
  if (deletedBefore(serviceAccount, now - leewayMs)) {
    throw new AuthenticationError(`service account ${namespace}/${account.name} has been deleted`);
  }

  if (secret !== undefined) await checkBound(context, "secrets", "secret", secret, namespace);
  if (pod !== undefined) await checkBound(context, "pods", "pod", pod, namespace);
  // A pod-bound token only reports its pod's node; a node-bound token needs its node.
  if (node !== undefined && pod === undefined) await checkBound(context, "nodes", "node", node, undefined);

  const jti = payload.jti;
  return {
    namespace,
    name: account.name,
    uid: account.uid,
    ...(pod === undefined ? {} : { podName: pod.name, podUid: pod.uid }),
    ...(node === undefined || node.name === "" ? {} : { nodeName: node.name }),
    ...(node === undefined || node.name === "" || node.uid === "" ? {} : { nodeUid: node.uid }),
    ...(typeof jti === "string" && jti !== "" ? { credentialId: `JTI=${jti}` } : {}),
  };
}
