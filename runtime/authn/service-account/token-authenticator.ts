// Service account tokens as kube-apiserver authenticates them (pkg/serviceaccount JWTTokenAuthenticator):
// a JWT whose unverified `iss` is one of `--service-account-issuer` (or the legacy issuer) is this
// authenticator's; its signature must verify with a key of `--service-account-key-file` (picked by `kid`),
// its audiences must meet the wanted ones, and the validator checks lifetime and the objects it names.
// Bound tokens always look their account and bound object up; `--service-account-lookup` governs legacy
// (secret-based) tokens only, as in kube.
import type { KeyObject } from "node:crypto";
import { type Authenticated, AuthenticationError, type TokenAuthenticator } from "../../access/authenticator.js";
import type { UserInfo } from "../../access/user-info.js";
import { serviceAccountGroups, serviceAccountUsername } from "../../access/user-info.js";
import { goQuote } from "../../errors/go-format.js";
import type { ResourceApi } from "../../resources/resource-api.js";
import { joseModule } from "../jose-module.js";
import { type ServiceAccountInfo, validateBoundToken } from "./bound-token-validator.js";
import { legacyIssuer } from "./claims.js";
import { validateLegacyToken } from "./legacy-token-validator.js";
import { type VerificationKey, verificationKey } from "./signing-keys.js";

export interface ServiceAccountTokenAuthenticatorOptions {
  /** `--service-account-issuer`: tokens of every one are accepted. */
  issuers: readonly string[];
  /** `--service-account-key-file` keys (a private key stands for its public half). */
  keys: readonly KeyObject[];
  /** `--api-audiences`, the audiences asked for when the caller names none; default: the issuers. */
  apiAudiences?: readonly string[];
  /** `--service-account-lookup` (default true). */
  lookup?: boolean;
  resources: ResourceApi;
  now?: () => Date;
}

/** The extra keys kube sets on a service account's user. */
const extraKeys = {
  podName: "authentication.kubernetes.io/pod-name",
  podUid: "authentication.kubernetes.io/pod-uid",
  nodeName: "authentication.kubernetes.io/node-name",
  nodeUid: "authentication.kubernetes.io/node-uid",
  credentialId: "authentication.kubernetes.io/credential-id",
} as const;

/** apiserver's ServiceAccountInfo.UserInfo. */
function serviceAccountUser(info: ServiceAccountInfo): UserInfo {
  const extra: Record<string, string[]> = {};
  if (info.podName !== undefined && info.podUid !== undefined) {
    extra[extraKeys.podName] = [info.podName];
    extra[extraKeys.podUid] = [info.podUid];
  }
  if (info.credentialId !== undefined) extra[extraKeys.credentialId] = [info.credentialId];
  if (info.nodeName !== undefined) {
    extra[extraKeys.nodeName] = [info.nodeName];
    if (info.nodeUid !== undefined) extra[extraKeys.nodeUid] = [info.nodeUid];
  }
  return {
    name: serviceAccountUsername(info.namespace, info.name),
    groups: serviceAccountGroups(info.namespace),
    uid: info.uid,
    ...(Object.keys(extra).length === 0 ? {} : { extra }),
  };
}

/** The payload of a compact JWS, unverified; undefined when the text is no JWT. */
function unverifiedPayload(token: string): Record<string, unknown> | undefined {
  if (token.trimStart().startsWith("{")) return undefined;
  const parts = token.split(".");
  if (parts.length !== 3) return undefined;
  try {
    const payload: unknown = JSON.parse(Buffer.from(parts[1] ?? "", "base64url").toString("utf8"));
    return typeof payload === "object" && payload !== null && !Array.isArray(payload)
      ? (payload as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The protected header's key id; undefined when the header is not a JWS header (not a token of ours). */
function protectedHeader(token: string): { kid?: string } | undefined {
  try {
    const header: unknown = JSON.parse(Buffer.from(token.split(".")[0] ?? "", "base64url").toString("utf8"));
    if (typeof header !== "object" || header === null || Array.isArray(header)) return undefined;
    const { kid } = header as { kid?: unknown };
    return typeof kid === "string" && kid !== "" ? { kid } : {};
  } catch {
    return undefined;
  }
}

/** Go's `%q` of a string slice: `["a" "b"]`. */
function quotedList(values: readonly string[]): string {
  return `[${values.map(goQuote).join(" ")}]`;
}

function claimsOf(payload: Uint8Array): Record<string, unknown> {
  let claims: unknown;
  try {
    claims = JSON.parse(new TextDecoder().decode(payload));
  } catch (error) {
    throw new AuthenticationError((error as Error).message);
  }
  if (typeof claims !== "object" || claims === null || Array.isArray(claims)) {
    throw new AuthenticationError("service account token claims are not a JSON object");
  }
  return claims as Record<string, unknown>;
}

function audiencesOf(payload: Record<string, unknown>): string[] {
  const aud = payload.aud;
  if (typeof aud === "string") return [aud];
  return Array.isArray(aud) ? aud.filter((a): a is string => typeof a === "string") : [];
}

export class ServiceAccountTokenAuthenticator implements TokenAuthenticator {
  private readonly issuers: ReadonlySet<string>;
  private readonly keys: VerificationKey[];
  private readonly apiAudiences: readonly string[];
  private readonly lookup: boolean;
  private readonly resources: ResourceApi;
  private readonly now: () => Date;

  constructor(options: ServiceAccountTokenAuthenticatorOptions) {
    this.issuers = new Set(options.issuers);
    this.keys = options.keys.map(verificationKey);
    this.apiAudiences = [...(options.apiAudiences ?? options.issuers)];
    this.lookup = options.lookup ?? true;
    this.resources = options.resources;
    this.now = options.now ?? (() => new Date());
  }

  async authenticateToken(token: string, audiences?: readonly string[]): Promise<Authenticated | undefined> {
    const unverified = unverifiedPayload(token);
    const issuer = unverified?.iss;
    if (typeof issuer !== "string") return undefined;
    const legacy = issuer === legacyIssuer;
    if (!legacy && !this.issuers.has(issuer)) return undefined;
    const header = protectedHeader(token);
    if (header === undefined) return undefined;

    const payload = await this.verifiedPayload(token, header.kid);
    const tokenAudiences = audiencesOf(payload);
    // Tokens without audiences (legacy ones) are for the API server only.
    const held = tokenAudiences.length === 0 ? this.apiAudiences : tokenAudiences;
    const wanted = audiences ?? this.apiAudiences;
    const shared = wanted.filter((audience) => held.includes(audience));
    if (shared.length === 0 && this.apiAudiences.length !== 0) {
      throw new AuthenticationError(
        `token audiences ${quotedList(held)} is invalid for the target audiences ${quotedList(wanted)}`,
      );
    }

    const info = legacy
      ? await validateLegacyToken(token, payload, { lookup: this.lookup, resources: this.resources, now: this.now })
      : await validateBoundToken(payload, { resources: this.resources, now: this.now() });
    return { user: serviceAccountUser(info), audiences: shared };
  }

  /** The payload once a key verifies the signature: the key the `kid` names, else every key in turn. */
  private async verifiedPayload(token: string, kid: string | undefined): Promise<Record<string, unknown>> {
    const candidates = kid === undefined ? this.keys : this.keys.filter((key) => key.keyId === kid);
    if (candidates.length === 0) throw new AuthenticationError("invalid signature, no keys found");
    for (const key of candidates) {
      let payload: Uint8Array;
      try {
        ({ payload } = await (await joseModule()).compactVerify(token, key.publicKey));
      } catch {
        continue;
      }
      return claimsOf(payload);
    }
    // kube aggregates go-jose's error of each key; the same text each time reads as one.
    throw new AuthenticationError("go-jose/go-jose: error in cryptographic primitive");
  }
}
