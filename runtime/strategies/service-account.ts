// ServiceAccounts: secret references keep only their name (kube's cleanSecretReferences), a delete
// answers with the deleted account, and `serviceaccounts/<name>/token` answers a TokenRequest with a signed
// token as kube's TokenREST does (pkg/registry/core/serviceaccount/storage/token.go). Tokens are never stored,
// so a dry run answers like any other request.
import { type CoreResource, findObject, getObject, metaOf } from "../authn/service-account/core-objects.js";
import {
  expirationExtensionSeconds,
  type ServiceAccountTokenIssuer,
  type TokenSubject,
  warnOnlyBoundTokenExpirationSeconds,
} from "../authn/service-account/token-issuer.js";
import { type FieldError, invalid as invalidField } from "../errors/field-error.js";
import { pathNotFound } from "../errors/generic-errors.js";
import { badRequest, conflict, internal, invalid } from "../errors/status-error.js";
import type { KubeObject } from "../object/kube-object.js";
import { formatTime } from "../resources/timestamps.js";
import { asObject, type JsonObject, listItems } from "../validation/walk.js";
import type { HookRequest, KindStrategy } from "./hook-request.js";

function cleanSecretReferences(obj: KubeObject): void {
  if (!Array.isArray(obj.secrets)) return;
  obj.secrets = listItems(obj.secrets).map((ref) => {
    const name = asObject(ref)?.name;
    return name === undefined ? {} : { name };
  });
}

const tokenRequestKind = { group: "authentication.k8s.io", name: "TokenRequest" };
/** The v1 default of spec.expirationSeconds. */
const defaultExpirationSeconds = 3600;
/** kube's MinTokenAgeSec. */
const minExpirationSeconds = 10 * 60;

/** ObjectMeta's fields in Go's order, so the answer's metadata reads as kube's does. */
const objectMetaOrder = [
  "name",
  "generateName",
  "namespace",
  "selfLink",
  "uid",
  "resourceVersion",
  "generation",
  "creationTimestamp",
  "deletionTimestamp",
  "deletionGracePeriodSeconds",
  "labels",
  "annotations",
  "ownerReferences",
  "finalizers",
  "managedFields",
];

function inGoOrder(obj: JsonObject, order: readonly string[]): JsonObject {
  const sorted: JsonObject = {};
  for (const key of order) if (obj[key] !== undefined && obj[key] !== "") sorted[key] = obj[key];
  return sorted;
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** schema.FromAPIVersionAndKind: an apiVersion that does not parse leaves group and version empty. */
function groupVersionKind(ref: JsonObject): { group: string; version: string; kind: string } {
  const apiVersion = text(ref.apiVersion);
  const kind = text(ref.kind);
  const parts = apiVersion === "" ? [] : apiVersion.split("/");
  if (parts.length === 1) return { group: "", version: parts[0] as string, kind };
  if (parts.length === 2) return { group: parts[0] as string, version: parts[1] as string, kind };
  return { group: "", version: "", kind };
}

interface BoundObject {
  subject: Pick<TokenSubject, "pod" | "secret" | "node">;
  uid: string;
  isPod: boolean;
}

/** What `boundObjectRef` names, checked as kube checks it: a kind it binds to, existing, with the given uid. */
async function bindToken(
  request: HookRequest,
  ref: JsonObject,
  account: string,
  namespace: string,
): Promise<BoundObject> {
  const bound = await readBoundObject(request, ref, account, namespace);
  const uid = text(ref.uid);
  if (uid !== "" && uid !== bound.uid) {
    const kind = groupVersionKind(ref);
    throw conflict(
      { group: kind.group, name: kind.kind },
      text(ref.name),
      `the UID in the bound object reference (${uid}) does not match the UID in record. The object might have been deleted and then recreated`,
    );
  }
  return bound;
}

/** kube reads a named object only: an empty name is refused before the lookup. */
async function boundObject(
  request: HookRequest,
  resource: CoreResource,
  name: string,
  namespace?: string,
): Promise<KubeObject> {
  if (name === "") throw badRequest("Name parameter required.");
  return getObject(request.resources, resource, name, namespace);
}

/** The node a pod runs on, for the token's claims; only its name when the Node object is missing. */
async function nodeOfPod(request: HookRequest, nodeName: string): Promise<{ name: string; uid?: string }> {
  let node: KubeObject | undefined;
  try {
    node = await findObject(request.resources, "nodes", nodeName);
  } catch (error) {
    throw internal((error as Error).message);
  }
  const uid = node === undefined ? undefined : metaOf(node).uid;
  return uid === undefined ? { name: nodeName } : { name: nodeName, uid };
}

async function readBoundObject(
  request: HookRequest,
  ref: JsonObject,
  account: string,
  namespace: string,
): Promise<BoundObject> {
  const gvk = groupVersionKind(ref);
  const name = text(ref.name);
  if (gvk.group === "" && gvk.kind === "Pod") {
    const pod = await boundObject(request, "pods", name, namespace);
    const spec = asObject(pod.spec) ?? {};
    if (text(spec.serviceAccountName) !== account) {
      throw badRequest(
        `cannot bind token for serviceaccount "${account}" to pod running with different serviceaccount name.`,
      );
    }
    const uid = metaOf(pod).uid ?? "";
    const nodeName = text(spec.nodeName);
    const node = nodeName === "" ? {} : { node: await nodeOfPod(request, nodeName) };
    return { subject: { pod: { name, uid }, ...node }, uid, isPod: true };
  }
  if (gvk.group === "" && gvk.kind === "Node") {
    const uid = metaOf(await boundObject(request, "nodes", name)).uid ?? "";
    return { subject: { node: { name, uid } }, uid, isPod: false };
  }
  if (gvk.group === "" && gvk.kind === "Secret") {
    const uid = metaOf(await boundObject(request, "secrets", name, namespace)).uid ?? "";
    return { subject: { secret: { name, uid } }, uid, isPod: false };
  }
  throw badRequest(`cannot bind token to object of type ${gvk.group}/${gvk.version}, Kind=${gvk.kind}`);
}

/** kube's ValidateTokenRequest. */
function expirationErrors(seconds: number): FieldError[] {
  const field = "spec.expirationSeconds";
  if (seconds < minExpirationSeconds) {
    return [invalidField(field, seconds, "may not specify a duration less than 10 minutes")];
  }
  return seconds > 2 ** 32 ? [invalidField(field, seconds, "may not specify a duration larger than 2^32 seconds")] : [];
}

function issuerOf(request: HookRequest): ServiceAccountTokenIssuer {
  const issuer = request.access.serviceAccountTokens;
  // kube serves serviceaccounts/token only when a token signer is configured.
  if (issuer === undefined) throw pathNotFound();
  return issuer;
}

/** POST serviceaccounts/<name>/token: the TokenRequest answered with a token for the account. */
async function createToken(body: KubeObject, request: HookRequest): Promise<KubeObject> {
  const issuer = issuerOf(request);
  const namespace = request.namespace;
  if (namespace === undefined) throw badRequest("namespace is required");
  const name = request.name ?? "";
  const meta = asObject(body.metadata) ?? {};
  for (const [field, wanted] of [
    ["name", name],
    ["namespace", namespace],
  ] as const) {
    if (text(meta[field]) === "" || meta[field] === wanted) continue;
    const detail = `must match the service account ${field} if specified`;
    throw invalid(tokenRequestKind, name, [invalidField(`metadata.${field}`, meta[field], detail)]);
  }

  const serviceAccount = await getObject(request.resources, "serviceaccounts", name, namespace);
  const accountUid = metaOf(serviceAccount).uid ?? "";
  const requestUid = text(meta.uid);
  if (requestUid !== "" && requestUid !== accountUid) {
    throw conflict(
      tokenRequestKind,
      name,
      `the UID in the token request (${requestUid}) does not match the UID of the service account (${accountUid})`,
    );
  }

  const spec = asObject(body.spec) ?? {};
  const requested = listItems(spec.audiences).map(text);
  const audiences = requested.length === 0 ? [...issuer.apiAudiences] : requested;
  let expirationSeconds =
    typeof spec.expirationSeconds === "number" ? spec.expirationSeconds : defaultExpirationSeconds;
  const now = issuer.now();

  const errors = expirationErrors(expirationSeconds);
  if (errors.length > 0) throw invalid(tokenRequestKind, "", errors);

  const ref = asObject(spec.boundObjectRef);
  const bound = ref === undefined ? undefined : await bindToken(request, ref, name, namespace);

  if (issuer.maxTokenExpirationSeconds > 0 && expirationSeconds > issuer.maxTokenExpirationSeconds) {
    request.warn(
      `requested expiration of ${expirationSeconds} seconds shortened to ${issuer.maxTokenExpirationSeconds} seconds`,
    );
    expirationSeconds = issuer.maxTokenExpirationSeconds;
  }
  // Projected tokens kubelet asks for (3607 s, API audiences) live a year but are reported stale after
  // the requested time, so that clients that never re-read their token keep working while it shows.
  const extended =
    issuer.extendTokenExpiration &&
    bound?.isPod === true &&
    expirationSeconds === warnOnlyBoundTokenExpirationSeconds &&
    issuer.isApiAudiences(audiences);
  const { token } = await issuer.issue({
    serviceAccount: { namespace, name, uid: accountUid },
    ...bound?.subject,
    audiences,
    expirationSeconds: extended ? expirationExtensionSeconds : expirationSeconds,
    ...(extended ? { warnAfterSeconds: expirationSeconds } : {}),
    now,
  });

  const boundObjectRef = ref === undefined ? null : inGoOrder(ref, ["kind", "apiVersion", "name", "uid"]);
  return {
    kind: "TokenRequest",
    apiVersion: "authentication.k8s.io/v1",
    metadata: inGoOrder(
      { ...meta, name, namespace, uid: accountUid, creationTimestamp: formatTime(now) },
      objectMetaOrder,
    ),
    spec: { audiences, expirationSeconds, boundObjectRef },
    status: { token, expirationTimestamp: formatTime(new Date(now.getTime() + expirationSeconds * 1000)) },
  };
}

export const strategy: KindStrategy = {
  prepareForCreate: cleanSecretReferences,
  prepareForUpdate(obj: KubeObject, _old: KubeObject, subresource?: string): void {
    if (subresource === undefined) cleanSecretReferences(obj);
  },
  returnDeletedObject: true,
  createHooks: { token: createToken },
};
