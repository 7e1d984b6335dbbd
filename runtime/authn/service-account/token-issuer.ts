// Signs service account tokens as kube-apiserver's TokenRequest does (pkg/serviceaccount Claims and
// JWTTokenGenerator): the first `--service-account-issuer` is the `iss`, the key is the one of
// `--service-account-signing-key-file`, and the header names the key by kube's key id. The issuer also carries
// the server's TokenRequest settings, so the serviceaccounts/token hook finds them in one place.

import type { KeyObject } from "node:crypto";
import { randomUUID } from "node:crypto";
import { serviceAccountUsername } from "../../access/user-info.js";
import { joseModule } from "../jose-module.js";
import type { BoundTokenClaims, KubernetesClaim, NodeRef, ObjectRef } from "./claims.js";
import { type VerificationKey, verificationKey } from "./signing-keys.js";

/** Injected lifetime kubelet asks for projected tokens; such pod-bound tokens may be extended. */
export const warnOnlyBoundTokenExpirationSeconds = 60 * 60 + 7;
/** How long an extended token lives (kube's ExpirationExtensionSeconds, one year). */
export const expirationExtensionSeconds = 24 * 365 * 60 * 60;

/** kube-apiserver's service account token flags, with their defaults as kapi applies them. */
export interface ServiceAccountTokenIssuerOptions {
  /** `--service-account-issuer`: the first signs; all are accepted by the authenticator. */
  issuers: readonly string[];
  /** `--service-account-signing-key-file`: an RSA or ECDSA private key. */
  signingKey: KeyObject;
  /** `--api-audiences`; default: the issuers. */
  apiAudiences?: readonly string[];
  /** `--service-account-max-token-expiration` in seconds; 0 or absent: no maximum. */
  maxTokenExpirationSeconds?: number;
  /** `--service-account-extend-token-expiration` (default true). */
  extendTokenExpiration?: boolean;
  now?: () => Date;
}

/** What a token says about its holder. */
export interface TokenSubject {
  serviceAccount: { namespace: string; name: string; uid: string };
  /** What the token is bound to: a pod (with the node it runs on, when known), a secret, or a node. */
  pod?: ObjectRef;
  secret?: ObjectRef;
  node?: NodeRef;
}

export interface TokenToIssue extends TokenSubject {
  audiences: readonly string[];
  /** Lifetime of the token (`exp` − `iat`). */
  expirationSeconds: number;
  /** Seconds after issue when an extended token counts as stale; absent when not extended. */
  warnAfterSeconds?: number;
  /** The issue time; default now. */
  now?: Date;
}

export interface IssuedToken {
  token: string;
  claims: BoundTokenClaims;
}

function seconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}

function kubernetesClaim(subject: TokenSubject, warnAfter: number | undefined): KubernetesClaim {
  const { namespace, name, uid } = subject.serviceAccount;
  // Keys in sorted order, as Go's encoder writes kube's claims map.
  return {
    namespace,
    ...(subject.node === undefined ? {} : { node: subject.node }),
    ...(subject.pod === undefined ? {} : { pod: subject.pod }),
    ...(subject.secret === undefined ? {} : { secret: subject.secret }),
    serviceaccount: { name, uid },
    ...(warnAfter === undefined ? {} : { warnafter: warnAfter }),
  };
}

export class ServiceAccountTokenIssuer {
  /** The `iss` of every token this issuer signs. */
  readonly issuer: string;
  readonly issuers: readonly string[];
  readonly apiAudiences: readonly string[];
  /** 0: no maximum. */
  readonly maxTokenExpirationSeconds: number;
  readonly extendTokenExpiration: boolean;
  /** The public half of the signing key, with its key id. */
  readonly key: VerificationKey;
  readonly now: () => Date;
  private readonly signingKey: KeyObject;

  constructor(options: ServiceAccountTokenIssuerOptions) {
    const first = options.issuers[0];
    if (first === undefined || first === "") throw new Error("service-account-issuer should not be an empty string");
    this.issuer = first;
    this.issuers = [...options.issuers];
    this.apiAudiences = [...(options.apiAudiences ?? options.issuers)];
    this.maxTokenExpirationSeconds = options.maxTokenExpirationSeconds ?? 0;
    this.extendTokenExpiration = options.extendTokenExpiration ?? true;
    if (options.signingKey.type !== "private") throw new Error("the service account signing key must be a private key");
    this.signingKey = options.signingKey;
    this.key = verificationKey(options.signingKey);
    this.now = options.now ?? (() => new Date());
  }

  /** True when every audience is one of the API server's (kube's isKubeAudiences). */
  isApiAudiences(audiences: readonly string[]): boolean {
    return audiences.every((audience) => this.apiAudiences.includes(audience));
  }

  /** Signs a bound token: kube's Claims (with a fresh jti) under this issuer and key. */
  async issue(request: TokenToIssue): Promise<IssuedToken> {
    const iat = seconds(request.now ?? this.now());
    const { namespace, name } = request.serviceAccount;
    const warnAfter = request.warnAfterSeconds === undefined ? undefined : iat + request.warnAfterSeconds;
    const claims: BoundTokenClaims = {
      ...(request.audiences.length === 0 ? {} : { aud: [...request.audiences] }),
      exp: iat + request.expirationSeconds,
      iat,
      iss: this.issuer,
      jti: randomUUID(),
      "kubernetes.io": kubernetesClaim(request, warnAfter),
      nbf: iat,
      sub: serviceAccountUsername(namespace, name),
    };
    const { CompactSign } = await joseModule();
    const token = await new CompactSign(new TextEncoder().encode(JSON.stringify(claims)))
      .setProtectedHeader({ alg: this.key.algorithm, kid: this.key.keyId })
      .sign(this.signingKey);
    return { token, claims };
  }
}
