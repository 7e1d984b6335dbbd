// The service account issuer discovery documents kube-apiserver serves (ServiceAccountIssuerDiscovery):
// an OpenID provider configuration at /.well-known/openid-configuration and the verification keys as a JWK
// set at /openid/v1/jwks, so that relying parties outside the cluster can verify service account tokens.
// kube installs neither endpoint when the issuer is no valid https URL; `openIDMetadata` throws then, with
// kube's words, for the caller to log and skip them.

import { joseModule } from "../jose-module.js";
import type { VerificationKey } from "./signing-keys.js";

export const openIDConfigurationPath = "/.well-known/openid-configuration";
export const jwksPath = "/openid/v1/jwks";
/** Both answers may be cached for an hour (kube's Cache-Control). */
export const openIDCacheControl = "public, max-age=3600";
export const openIDConfigurationContentType = "application/json";
export const jwksContentType = "application/jwk-set+json";

export interface OpenIDMetadataOptions {
  /** The first `--service-account-issuer`. */
  issuer: string;
  /** `--service-account-jwks-uri`; default `https://<externalAddress>/openid/v1/jwks`. */
  jwksUri?: string;
  /** The server's external address (host and port), for the default JWKS URI. */
  externalAddress?: string;
  /** The `--service-account-key-file` keys. */
  keys: readonly VerificationKey[];
}

/** The two response bodies, rendered once (kube renders them at start too). */
export interface OpenIDMetadata {
  configuration: string;
  jwks: string;
}

function parseUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

function checkIssuer(issuer: string): void {
  if (issuer === "") throw new Error("empty issuer URL");
  const url = parseUrl(issuer);
  if (url === undefined || url.protocol !== "https:") {
    throw new Error(`issuer URL must use https scheme, got: ${issuer}`);
  }
  if (url.search !== "") throw new Error(`issuer URL may not include a query, got: ${issuer}`);
  if (url.hash !== "") throw new Error(`issuer URL may not include a fragment, got: ${issuer}`);
}

function jwksUriOf(options: OpenIDMetadataOptions): string {
  if (options.jwksUri !== undefined && options.jwksUri !== "") {
    const url = parseUrl(options.jwksUri);
    if (url?.protocol !== "https:") throw new Error(`jwksURI requires https scheme, parsed as: ${options.jwksUri}`);
    return options.jwksUri;
  }
  if (options.externalAddress === undefined || options.externalAddress === "") {
    throw new Error("either the JWKS URI or the default external address, or both, must be set");
  }
  return `https://${options.externalAddress}${jwksPath}`;
}

/** A public JWK as go-jose writes it: use, kty, kid, crv, alg, then the key's numbers. */
async function publicJwk(key: VerificationKey): Promise<Record<string, unknown>> {
  const jwk = await (await joseModule()).exportJWK(key.publicKey);
  return jwk.kty === "EC"
    ? { use: "sig", kty: "EC", kid: key.keyId, crv: jwk.crv, alg: key.algorithm, x: jwk.x, y: jwk.y }
    : { use: "sig", kty: "RSA", kid: key.keyId, alg: key.algorithm, n: jwk.n, e: jwk.e };
}

export async function openIDMetadata(options: OpenIDMetadataOptions): Promise<OpenIDMetadata> {
  checkIssuer(options.issuer);
  const jwksUri = jwksUriOf(options);
  if (options.keys.length === 0) throw new Error("no keys provided for validating keyset");
  const keys = await Promise.all(options.keys.map(publicJwk));
  const algorithms = [...new Set(options.keys.map((key) => key.algorithm))].sort();
  return {
    configuration: JSON.stringify({
      issuer: options.issuer,
      jwks_uri: jwksUri,
      response_types_supported: ["id_token"],
      subject_types_supported: ["public"],
      id_token_signing_alg_values_supported: algorithms,
    }),
    jwks: JSON.stringify({ keys }),
  };
}
