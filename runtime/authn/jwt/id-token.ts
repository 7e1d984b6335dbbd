// The parts of a compact JWT kube's OIDC authenticator reads before trusting it: the unverified `iss`
// (to tell its tokens from others' without any work), the protected header, and the standard claims
// go-oidc checks (issuer, audience, expiry, not-before), with go-oidc's error texts.
import { goQuote } from "../../errors/go-format.js";

const base64url = /^[A-Za-z0-9_-]*$/;

/** Go's base64.RawURLEncoding.DecodeString: no padding, nothing outside the alphabet. */
function decodeSegment(segment: string): Buffer | undefined {
  if (!base64url.test(segment) || segment.length % 4 === 1) return undefined;
  return Buffer.from(segment, "base64url");
}

function parseObject(bytes: Buffer | undefined): Record<string, unknown> | undefined {
  if (bytes === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(bytes.toString("utf8"));
    return value !== null && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** kube's untrustedIssuer: the `iss` of a compact JWT, unverified; undefined when it is not one. */
export function untrustedIssuer(token: string): string | undefined {
  if (token.trimStart().startsWith("{")) return undefined;
  const parts = token.split(".");
  if (parts.length !== 3) return undefined;
  const claims = parseObject(decodeSegment(parts[1] ?? ""));
  if (claims === undefined || (claims.iss !== undefined && claims.iss !== null && typeof claims.iss !== "string")) {
    return undefined;
  }
  const issuer = typeof claims.iss === "string" ? claims.iss : "";
  // OpenID Connect lets Google omit the scheme.
  return issuer === "accounts.google.com" ? "https://accounts.google.com" : issuer;
}

export interface ParsedIdToken {
  alg: string;
  kid?: string;
  /** The payload's JSON object. */
  claims: Record<string, unknown>;
  audience: string[];
  /** Seconds since the epoch; undefined when absent. */
  expiry?: number;
  notBefore?: number;
}

/** Go's encoding/json name for the kind of a JSON value. */
export function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return "array";
  if (value === null) return "null";
  return typeof value === "number" ? "number" : typeof value === "boolean" ? "bool" : typeof value;
}

function claimTypeError(value: unknown, claim: string, goType: string): Error {
  return new Error(
    `oidc: failed to unmarshal claims: json: cannot unmarshal ${jsonKind(value)} into Go struct field idToken.${claim} of type ${goType}`,
  );
}

function seconds(claims: Record<string, unknown>, name: string): number | undefined {
  const value = claims[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number") throw claimTypeError(value, name, "json.Number");
  return Math.trunc(value);
}

/** Header and standard claims of a token whose issuer matched; throws go-oidc's `oidc: malformed jwt: …`. */
export function parseIdToken(token: string): ParsedIdToken {
  const [headerPart = "", payloadPart = "", signaturePart] = token.split(".");
  if (signaturePart === undefined) throw new Error("oidc: malformed jwt: compact JWS format must have three parts");
  const header = parseObject(decodeSegment(headerPart));
  if (header === undefined) throw new Error("oidc: malformed jwt: invalid protected header");
  if (typeof header.alg !== "string") throw new Error("oidc: malformed jwt: missing or invalid alg header");
  const claims = parseObject(decodeSegment(payloadPart));
  if (claims === undefined) throw new Error("oidc: malformed jwt: invalid payload");
  for (const name of ["iss", "sub", "nonce", "at_hash"]) {
    const value = claims[name];
    if (value !== undefined && value !== null && typeof value !== "string") throw claimTypeError(value, name, "string");
  }
  const aud = claims.aud;
  let audience: string[] = [];
  if (typeof aud === "string") audience = [aud];
  else if (Array.isArray(aud) && aud.every((a) => typeof a === "string" || a === null)) {
    audience = aud.map((a) => (typeof a === "string" ? a : ""));
  } else if (aud !== undefined && aud !== null) throw claimTypeError(aud, "aud", "oidc.audience");
  const expiry = seconds(claims, "exp");
  const notBefore = seconds(claims, "nbf");
  seconds(claims, "iat");
  return {
    alg: header.alg,
    ...(typeof header.kid === "string" ? { kid: header.kid } : {}),
    claims,
    audience,
    ...(expiry === undefined ? {} : { expiry }),
    ...(notBefore === undefined ? {} : { notBefore }),
  };
}

/** Go's `%v` of a time.Time in UTC: `2024-01-02 03:04:05.5 +0000 UTC`. */
export function goTime(epochMs: number | undefined): string {
  if (epochMs === undefined) return "0001-01-01 00:00:00 +0000 UTC";
  const iso = new Date(epochMs).toISOString();
  const fraction = iso.slice(19, 23).replace(/\.?0+$/, "");
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${fraction} +0000 UTC`;
}

/** Go's `%q` of a []string: `["a" "b"]`. */
export function goQuoteList(values: readonly string[]): string {
  return `[${values.map(goQuote).join(" ")}]`;
}
