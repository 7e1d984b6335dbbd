// Who a request is from, as authenticators attach it (k8s.io/apiserver's user.Info), and the names
// kube-apiserver gives to well-known users and groups, service accounts' among them.
import { dnsLabelErrors, dnsSubdomainErrors } from "../validation/name-formats.js";

export interface UserInfo {
  name: string;
  groups: string[];
  uid?: string;
  extra?: Record<string, string[]>;
}

/** Every authenticated user is in this group. */
export const allAuthenticated = "system:authenticated";
/** Requests without credentials, when anonymous access is on, are from this user in `allUnauthenticated`. */
export const anonymousUser = "system:anonymous";
export const allUnauthenticated = "system:unauthenticated";
/** Members may do everything, whatever the authorizers say. */
export const mastersGroup = "system:masters";

/** The identity behind the admin token and the admin client certificate that kapi writes into its kubeconfig. */
export const adminUser: UserInfo = { name: "kapi-admin", groups: [mastersGroup, allAuthenticated] };

const serviceAccountPrefix = "system:serviceaccount:";
/** Every service account is in this group, and in `system:serviceaccounts:<namespace>`. */
export const allServiceAccountsGroup = "system:serviceaccounts";

/** apiserver's serviceaccount.MakeUsername. */
export function serviceAccountUsername(namespace: string, name: string): string {
  return `${serviceAccountPrefix}${namespace}:${name}`;
}

/** apiserver's serviceaccount.MakeGroupNames. */
export function serviceAccountGroups(namespace: string): string[] {
  return [allServiceAccountsGroup, `${allServiceAccountsGroup}:${namespace}`];
}

/** apiserver's serviceaccount.SplitUsername: valid namespace and name, else undefined. */
export function splitServiceAccountUsername(username: string): { namespace: string; name: string } | undefined {
  if (!username.startsWith(serviceAccountPrefix)) return undefined;
  const parts = username.slice(serviceAccountPrefix.length).split(":");
  const [namespace, name] = parts;
  if (parts.length !== 2 || namespace === undefined || name === undefined) return undefined;
  if (dnsLabelErrors(namespace).length > 0 || dnsSubdomainErrors(name).length > 0) return undefined;
  return { namespace, name };
}
