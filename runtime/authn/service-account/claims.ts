// The claims of a service account token as kube's pkg/serviceaccount writes and reads them: the registered
// claims and the private `kubernetes.io` claim naming the namespace, the account and what the token is bound
// to. Legacy (secret-based) tokens carry flat `kubernetes.io/serviceaccount/…` claims instead.

/** A name and uid, as the private claims refer to objects. */
export interface ObjectRef {
  name: string;
  uid: string;
}

/** The node a pod-bound token names may have no uid (the node object was not found). */
export interface NodeRef {
  name: string;
  uid?: string;
}

export interface KubernetesClaim {
  namespace: string;
  node?: NodeRef;
  pod?: ObjectRef;
  secret?: ObjectRef;
  serviceaccount: ObjectRef;
  /** Seconds since the epoch after which an extended token is reported stale. */
  warnafter?: number;
}

/** The payload of a bound token; keys in the order Go's JSON encoder writes the claims map (sorted). */
export interface BoundTokenClaims {
  aud?: string[];
  exp: number;
  iat: number;
  iss: string;
  jti: string;
  "kubernetes.io": KubernetesClaim;
  nbf: number;
  sub: string;
}

/** The issuer of secret-based tokens made by kube-controller-manager's tokens controller. */
export const legacyIssuer = "kubernetes/serviceaccount";

const legacyPrefix = "kubernetes.io/serviceaccount/";
export const legacyClaimNames = {
  namespace: `${legacyPrefix}namespace`,
  secretName: `${legacyPrefix}secret.name`,
  serviceAccountName: `${legacyPrefix}service-account.name`,
  serviceAccountUid: `${legacyPrefix}service-account.uid`,
} as const;
