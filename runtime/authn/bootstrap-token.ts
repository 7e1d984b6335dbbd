// Bootstrap tokens (`--enable-bootstrap-token-auth`, kube's plugin/pkg/auth/authenticator/token/bootstrap):
// a bearer token `<id>.<secret>` is checked against the Secret `bootstrap-token-<id>` in kube-system, read
// from the watch cache. Any mismatch leaves the token to the other authenticators, as kube does, so a bad
// bootstrap token ends as "invalid bearer token".
import { timingSafeEqual } from "node:crypto";
import type { Authenticated, TokenAuthenticator } from "../access/authenticator.js";
import { statusCode } from "../controllers/api-errors.js";
import { secrets } from "../controllers/core-kinds.js";
import type { KubeObject } from "../object/kube-object.js";
import type { ResourceApi } from "../resources/resource-api.js";
import {
  bootstrapTokenNamespace,
  bootstrapTokenSecretPrefix,
  bootstrapUserPrefix,
  expirationOf,
  groupsOf,
  isBeingDeleted,
  isBootstrapTokenSecret,
  parseBootstrapToken,
  secretValue,
  tokenIdKey,
  tokenSecretKey,
  usageAuthenticationKey,
} from "./bootstrap-token-secret.js";

function sameSecret(stored: string, presented: string): boolean {
  const a = Buffer.from(stored);
  const b = Buffer.from(presented);
  // Lengths are not secret (the format fixes them); the bytes are compared in constant time.
  return a.length === b.length && timingSafeEqual(a, b);
}

export interface BootstrapTokenAuthenticatorOptions {
  now?: () => Date;
}

export class BootstrapTokenAuthenticator implements TokenAuthenticator {
  private readonly now: () => Date;

  constructor(
    private readonly api: ResourceApi,
    options: BootstrapTokenAuthenticatorOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
  }

  async authenticateToken(token: string): Promise<Authenticated | undefined> {
    const parsed = parseBootstrapToken(token);
    if (parsed === undefined) return undefined;
    const secret = await this.secret(`${bootstrapTokenSecretPrefix}${parsed.id}`);
    if (secret === undefined || isBeingDeleted(secret) || !isBootstrapTokenSecret(secret)) return undefined;
    if (!sameSecret(secretValue(secret, tokenSecretKey), parsed.secret)) return undefined;
    if (secretValue(secret, tokenIdKey) !== parsed.id) return undefined;
    if (expirationOf(secret, this.now()).expired) return undefined;
    if (secretValue(secret, usageAuthenticationKey) !== "true") return undefined;
    const groups = groupsOf(secret);
    if (!Array.isArray(groups)) return undefined;
    return { user: { name: `${bootstrapUserPrefix}${parsed.id}`, groups } };
  }

  private async secret(name: string): Promise<KubeObject | undefined> {
    try {
      return (await this.api.get({ kind: secrets, namespace: bootstrapTokenNamespace, name })).object;
    } catch (error) {
      if (statusCode(error) === 404) return undefined;
      throw error;
    }
  }
}
