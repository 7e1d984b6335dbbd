// Impersonation as k8s.io/apiserver's WithImpersonation does it: Impersonate-User, Impersonate-Uid,
// Impersonate-Group (repeated) and Impersonate-Extra-<key> headers ask to act as another user. Each thing
// asked for is authorized for the requester with the `impersonate` verb (users, groups and service accounts
// in the core group, uids and userextras/<key> in authentication.k8s.io); one refusal refuses the request.
import type { Attributes, Authorizer } from "../access/authorizer.js";
import { forbiddenRequest } from "../access/request-attributes.js";
import {
  allAuthenticated,
  allUnauthenticated,
  anonymousUser,
  serviceAccountGroups,
  serviceAccountUsername,
  splitServiceAccountUsername,
  type UserInfo,
} from "../access/user-info.js";
import { badRequest } from "../errors/status-error.js";

export const userHeader = "impersonate-user";
export const uidHeader = "impersonate-uid";
export const groupHeader = "impersonate-group";
export const extraHeaderPrefix = "impersonate-extra-";

/** Request headers by lower-case name, each occurrence apart (IncomingMessage.headersDistinct). */
export type DistinctHeaders = Readonly<Record<string, readonly string[] | undefined>>;

type RequestKind = "User" | "ServiceAccount" | "Group" | "UserExtra" | "UID";

/** One thing to impersonate: kube's ObjectReference, with the extra key where it keeps it (fieldPath). */
interface ImpersonationRequest {
  kind: RequestKind;
  namespace: string;
  name: string;
  extraKey: string;
}

const authenticationGroup = "authentication.k8s.io";

/** What each kind is authorized as: its resource, and for uids and extras the authentication.k8s.io/v1 group. */
const resources: Readonly<Record<RequestKind, { resource: string; inAuthenticationGroup: boolean }>> = {
  User: { resource: "users", inAuthenticationGroup: false },
  ServiceAccount: { resource: "serviceaccounts", inAuthenticationGroup: false },
  Group: { resource: "groups", inAuthenticationGroup: false },
  UserExtra: { resource: "userextras", inAuthenticationGroup: true },
  UID: { resource: "uids", inAuthenticationGroup: true },
};

/** url.PathUnescape of an extra key in a header name; a key that is not well escaped is kept as it came. */
const token = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** client-go's escaping of an extra's key into a header name: bytes a header name may not hold as %XX. */
export function escapeExtraKey(key: string): string {
  let escaped = "";
  for (const byte of Buffer.from(key)) {
    const char = String.fromCharCode(byte);
    escaped += byte < 0x80 && char !== "%" && token.test(char) ? char : `%${byte.toString(16).toUpperCase()}`;
  }
  return escaped;
}

export function unescapeExtraKey(encoded: string): string {
  if (!/^(?:[^%]|%[0-9A-Fa-f]{2})*$/.test(encoded)) return encoded;
  const bytes: number[] = [];
  for (let i = 0; i < encoded.length; i++) {
    if (encoded[i] === "%") {
      bytes.push(Number.parseInt(encoded.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(encoded[i] as string));
  }
  return Buffer.from(bytes).toString("utf8");
}

/** Go's `%v` of the ObjectReference a request is, for the 400 text. */
function goReference(r: ImpersonationRequest): string {
  const apiVersion = resources[r.kind].inAuthenticationGroup ? `${authenticationGroup}/v1` : "";
  return `{${[r.kind, r.namespace, r.name, "", apiVersion, "", r.extraKey].join(" ")}}`;
}

/** buildImpersonationRequests: the user first, then groups, extras (by header name) and the uid. */
function impersonationRequests(headers: DistinctHeaders): ImpersonationRequest[] {
  const requests: ImpersonationRequest[] = [];
  const reference = (kind: RequestKind, name: string, namespace = "", extraKey = "") =>
    requests.push({ kind, namespace, name, extraKey });
  const user = headers[userHeader]?.[0] ?? "";
  if (user !== "") {
    const serviceAccount = splitServiceAccountUsername(user);
    if (serviceAccount === undefined) reference("User", user);
    else reference("ServiceAccount", serviceAccount.name, serviceAccount.namespace);
  }
  const groups = headers[groupHeader] ?? [];
  for (const group of groups) reference("Group", group);
  const extraHeaders = Object.keys(headers)
    .filter((h) => h.startsWith(extraHeaderPrefix))
    .sort();
  for (const header of extraHeaders) {
    const key = unescapeExtraKey(header.slice(extraHeaderPrefix.length));
    for (const value of headers[header] ?? []) reference("UserExtra", value, "", key);
  }
  const uid = headers[uidHeader]?.[0] ?? "";
  if (uid !== "") reference("UID", uid);
  if (user === "" && (groups.length > 0 || extraHeaders.length > 0 || uid !== "")) {
    throw badRequest(`requested [${requests.map(goReference).join(" ")}] without impersonating a user`);
  }
  return requests;
}

function attributesOf(requestor: UserInfo, r: ImpersonationRequest): Attributes {
  const { resource, inAuthenticationGroup } = resources[r.kind];
  return {
    user: requestor,
    verb: "impersonate",
    resourceRequest: true,
    apiGroup: inAuthenticationGroup ? authenticationGroup : "",
    apiVersion: inAuthenticationGroup ? "v1" : "",
    resource,
    subresource: r.extraKey,
    namespace: r.namespace,
    name: r.name,
    path: "",
  };
}

/**
 * The user the headers ask to act as, once the requester may impersonate every part of it; undefined when
 * the request asks for no impersonation. Throws kube's 400 (groups, extras or a uid without a user) or 403.
 */
export async function impersonatedUser(
  requestor: UserInfo,
  headers: DistinctHeaders,
  authorizer: Authorizer,
): Promise<UserInfo | undefined> {
  const requests = impersonationRequests(headers);
  if (requests.length === 0) return undefined;
  // Groups asked for are the authority; a service account without them gets its own.
  const groupsSpecified = (headers[groupHeader]?.length ?? 0) > 0;
  let name = "";
  let uid = "";
  let groups: string[] = [];
  const extra: Record<string, string[]> = {};
  for (const r of requests) {
    const attributes = attributesOf(requestor, r);
    const decision = await authorizer.authorize(attributes);
    if (decision.decision !== "allow" || decision.error !== undefined) {
      throw forbiddenRequest(attributes, decision.reason);
    }
    if (r.kind === "ServiceAccount") {
      name = serviceAccountUsername(r.namespace, r.name);
      if (!groupsSpecified) groups = serviceAccountGroups(r.namespace);
    } else if (r.kind === "User") name = r.name;
    else if (r.kind === "Group") groups.push(r.name);
    else if (r.kind === "UserExtra") extra[r.extraKey] = [...(extra[r.extraKey] ?? []), r.name];
    else uid = r.name;
  }
  if (name === anonymousUser) {
    if (!groups.includes(allUnauthenticated)) groups.push(allUnauthenticated);
  } else if (!groups.includes(allAuthenticated) && !groups.includes(allUnauthenticated)) {
    groups.push(allAuthenticated);
  }
  return {
    name,
    groups,
    ...(uid !== "" && { uid }),
    ...(Object.keys(extra).length > 0 && { extra }),
  };
}
