// kube-apiserver's service account token flags, checked as kube checks them, turned into the issuer the
// serviceaccounts/token subresource signs with and the authenticator bearer tokens go through.
import type { KeyObject } from "node:crypto";
import { goQuote } from "../../errors/go-format.js";
import type { ResourceApi } from "../../resources/resource-api.js";
import {
  keyId,
  privateKeyFromFile,
  publicKeysFromFile,
  type VerificationKey,
  verificationKey,
} from "./signing-keys.js";
import { ServiceAccountTokenAuthenticator } from "./token-authenticator.js";
import { ServiceAccountTokenIssuer } from "./token-issuer.js";

/** The issuer kubeadm and kind configure, used when `--service-account-issuer` is not given. */
export const defaultServiceAccountIssuer = "https://kubernetes.default.svc.cluster.local";

/** Options named after kube-apiserver's flags. */
export interface ServiceAccountOptions {
  /** `--service-account-issuer` (repeatable): the first signs, all are accepted. Default: the in-cluster URL. */
  serviceAccountIssuer?: readonly string[];
  /** `--service-account-signing-key-file`. Without it the caller's generated (or `<cert-dir>/sa.key`) key signs. */
  serviceAccountSigningKeyFile?: string;
  /** `--service-account-key-file` (repeatable): keys tokens are verified with, besides the signing key. */
  serviceAccountKeyFile?: readonly string[];
  /** `--service-account-max-token-expiration` in seconds; 0 or absent: no maximum. */
  serviceAccountMaxTokenExpiration?: number;
  /** `--service-account-extend-token-expiration` (default true). */
  serviceAccountExtendTokenExpiration?: boolean;
  /** `--service-account-lookup` (default true). */
  serviceAccountLookup?: boolean;
  /** `--service-account-jwks-uri`, the `jwks_uri` of the discovery document. */
  serviceAccountJwksUri?: string;
  /** `--api-audiences`; default: the issuers. */
  apiAudiences?: readonly string[];
}

export interface ServiceAccountTokens {
  issuer: ServiceAccountTokenIssuer;
  authenticator: ServiceAccountTokenAuthenticator;
  /** The verification keys, for the JWKS. */
  keys: VerificationKey[];
}

function urlLike(text: string): boolean {
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}

/** kube-apiserver's checks of these flags; each problem in kube's words. */
export function validateServiceAccountOptions(options: ServiceAccountOptions): string[] {
  const errors: string[] = [];
  const seen = new Set<string>();
  for (const issuer of options.serviceAccountIssuer ?? []) {
    if (issuer.includes(":") && !urlLike(issuer)) {
      errors.push(`service-account-issuer ${goQuote(issuer)} contained a ':' but was not a valid URL`);
    } else if (issuer === "") errors.push("service-account-issuer should not be an empty string");
    else if (seen.has(issuer)) errors.push(`service-account-issuer ${goQuote(issuer)} is already specified`);
    seen.add(issuer);
  }
  const max = options.serviceAccountMaxTokenExpiration ?? 0;
  if (max !== 0 && (max < 3600 || max > 2 ** 32)) {
    errors.push("the service-account-max-token-expiration must be between 1 hour and 2^32 seconds");
  }
  const jwksUri = options.serviceAccountJwksUri;
  if (jwksUri !== undefined && jwksUri !== "" && !jwksUri.startsWith("https://")) {
    errors.push(`service-account-jwks-uri requires https scheme, parsed as: ${jwksUri}`);
  }
  return errors;
}

/**
 * The issuer and authenticator for these options. `signingKey` signs when no signing key file is named
 * (kapi's stand-in for kube's required flag). The signing key always verifies too, so that the tokens the
 * server issues are accepted whatever key files are listed.
 */
export function serviceAccountTokens(
  options: ServiceAccountOptions,
  context: { resources: ResourceApi; signingKey?: KeyObject; now?: () => Date },
): ServiceAccountTokens {
  const errors = validateServiceAccountOptions(options);
  if (errors.length > 0) throw new Error(errors.join("; "));
  const file = options.serviceAccountSigningKeyFile;
  const signingKey = file === undefined || file === "" ? context.signingKey : privateKeyFromFile(file);
  if (signingKey === undefined) throw new Error("--service-account-signing-key-file is required");
  const issuers = options.serviceAccountIssuer ?? [defaultServiceAccountIssuer];
  const apiAudiences = options.apiAudiences ?? issuers;
  const now = context.now === undefined ? {} : { now: context.now };

  const byId = new Map<string, KeyObject>([[keyId(signingKey), signingKey]]);
  for (const path of options.serviceAccountKeyFile ?? []) {
    for (const key of publicKeysFromFile(path)) if (!byId.has(keyId(key))) byId.set(keyId(key), key);
  }
  const keys = [...byId.values()];
  return {
    issuer: new ServiceAccountTokenIssuer({
      issuers,
      signingKey,
      apiAudiences,
      maxTokenExpirationSeconds: options.serviceAccountMaxTokenExpiration ?? 0,
      extendTokenExpiration: options.serviceAccountExtendTokenExpiration ?? true,
      ...now,
    }),
    authenticator: new ServiceAccountTokenAuthenticator({
      issuers,
      keys,
      apiAudiences,
      lookup: options.serviceAccountLookup ?? true,
      resources: context.resources,
      ...now,
    }),
    keys: keys.map(verificationKey),
  };
}
