// Bootstrap token Secrets as k8s.io/cluster-bootstrap reads them: a Secret of type
// `bootstrap.kubernetes.io/token` named `bootstrap-token-<id>` in kube-system, whose data keys say what the
// token may do. Shared by the bootstrap token authenticator, the tokencleaner and the bootstrapsigner.

import { isDateTime } from "../../sdk/date-time.js";
import type { KubeObject } from "../object/kube-object.js";

export const bootstrapTokenSecretType = "bootstrap.kubernetes.io/token";
export const bootstrapTokenNamespace = "kube-system";
export const bootstrapTokenSecretPrefix = "bootstrap-token-";
export const bootstrapUserPrefix = "system:bootstrap:";
export const bootstrappersGroup = "system:bootstrappers";

/** The data keys of a bootstrap token Secret. */
export const tokenIdKey = "token-id";
export const tokenSecretKey = "token-secret";
export const expirationKey = "expiration";
export const extraGroupsKey = "auth-extra-groups";
export const usageAuthenticationKey = "usage-bootstrap-authentication";
export const usageSigningKey = "usage-bootstrap-signing";

const tokenPattern = /^([a-z0-9]{6})\.([a-z0-9]{16})$/;
const secretNamePattern = /^bootstrap-token-([a-z0-9]{6})$/;
const groupPattern = /^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$/;

export interface BootstrapToken {
  id: string;
  secret: string;
}

/** `<id>.<secret>` split in its parts; undefined for anything else (not a bootstrap token). */
export function parseBootstrapToken(token: string): BootstrapToken | undefined {
  const match = tokenPattern.exec(token);
  return match === null ? undefined : { id: match[1] as string, secret: match[2] as string };
}

/** The token id a Secret's name carries; undefined when the name is not `bootstrap-token-<id>`. */
export function tokenIdOfSecretName(name: string): string | undefined {
  return secretNamePattern.exec(name)?.[1];
}

interface SecretShape {
  metadata?: { name?: string; namespace?: string; uid?: string; deletionTimestamp?: string };
  type?: string;
  data?: Record<string, string>;
}

export function isBootstrapTokenSecret(secret: KubeObject): boolean {
  return (secret as SecretShape).type === bootstrapTokenSecretType;
}

/** A data key's value, decoded; "" when absent, as cluster-bootstrap's GetData. */
export function secretValue(secret: KubeObject, key: string): string {
  const value = (secret as SecretShape).data?.[key];
  return typeof value === "string" ? Buffer.from(value, "base64").toString("utf8") : "";
}

export interface Expiration {
  expired: boolean;
  /** Milliseconds left before it expires; undefined when the token never expires or already has. */
  remainingMs?: number;
}

/**
 * cluster-bootstrap's GetExpiration: no `expiration` means never; one that is not RFC 3339 counts as
 * expired; otherwise expired once the time is reached.
 */
export function expirationOf(secret: KubeObject, now: Date): Expiration {
  const text = secretValue(secret, expirationKey);
  if (text === "") return { expired: false };
  const at = isDateTime(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(at)) return { expired: true };
  const remainingMs = at - now.getTime();
  return remainingMs <= 0 ? { expired: true } : { expired: false, remainingMs };
}

/**
 * cluster-bootstrap's GetGroups: `system:bootstrappers` plus every group of `auth-extra-groups`, sorted and
 * without duplicates. One invalid group invalidates them all (the token is then refused).
 */
export function groupsOf(secret: KubeObject): string[] | { invalid: string } {
  const groups = new Set([bootstrappersGroup]);
  const extra = secretValue(secret, extraGroupsKey);
  if (extra !== "") {
    for (const group of extra.split(",")) {
      if (!groupPattern.test(group)) return { invalid: group };
      groups.add(group);
    }
  }
  return [...groups].sort();
}

/**
 * kube's validateSecretForSigning: the token a Secret lends to the bootstrapsigner, when its name and
 * `token-id` agree, it has a secret, has not expired and is marked `usage-bootstrap-signing: "true"`.
 */
export function signingTokenOf(secret: KubeObject, now: Date): BootstrapToken | undefined {
  const nameId = tokenIdOfSecretName((secret as SecretShape).metadata?.name ?? "");
  const id = secretValue(secret, tokenIdKey);
  const tokenSecret = secretValue(secret, tokenSecretKey);
  if (nameId === undefined || id === "" || id !== nameId || tokenSecret === "") return undefined;
  if (expirationOf(secret, now).expired) return undefined;
  if (secretValue(secret, usageSigningKey) !== "true") return undefined;
  return { id, secret: tokenSecret };
}

export function isBeingDeleted(secret: KubeObject): boolean {
  return (secret as SecretShape).metadata?.deletionTimestamp !== undefined;
}

export function uidOf(secret: KubeObject): string | undefined {
  return (secret as SecretShape).metadata?.uid;
}
