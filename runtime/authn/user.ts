// Who a request is from, as authenticators attach it (k8s.io/apiserver's user.Info), and the names
// kube-apiserver gives to well-known users and groups.

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
