// Token answers remembered for a while (k8s.io/apiserver's token/cache): kube-apiserver keeps the answers of
// its token union (successes 10 s, failures not at all) and of the token webhook (both for
// `--authentication-token-webhook-cache-ttl`). Keys are a hash of the audiences and the token, never the
// token itself; lookups of the same key in flight share one call; errors are kept only when asked.
import { createHash } from "node:crypto";
import type { Authenticated, TokenAuthenticator } from "../access/authenticator.js";

export interface TokenCacheOptions {
  /** Keep errors as failures (kube does for its token union, not for the webhook). */
  cacheErrors: boolean;
  successTtlMs: number;
  failureTtlMs: number;
  /** Kube's cache holds 32 stripes of 128 entries. */
  maxEntries?: number;
  now?: () => number;
}

type Outcome = { failed: false; result: Authenticated | undefined } | { failed: true; error: unknown };

function cacheKey(token: string, audiences: readonly string[] | undefined): string {
  return createHash("sha256")
    .update(JSON.stringify([audiences ?? [], token]))
    .digest("base64");
}

/** A copy each caller may change (impersonation and audit do), made field by field: structuredClone cost more. */
function copyOf(result: Authenticated): Authenticated {
  const { user } = result;
  const extra =
    user.extra === undefined ? undefined : Object.fromEntries(Object.entries(user.extra).map(([k, v]) => [k, [...v]]));
  return {
    ...result,
    user: { ...user, groups: [...user.groups], ...(extra === undefined ? {} : { extra }) },
    ...(result.audiences === undefined ? {} : { audiences: [...result.audiences] }),
  };
}

function settle(outcome: Outcome): Authenticated | undefined {
  if (outcome.failed) throw outcome.error;
  return outcome.result === undefined ? undefined : copyOf(outcome.result);
}

export class CachedTokenAuthenticator implements TokenAuthenticator {
  private readonly entries = new Map<string, { outcome: Outcome; expires: number }>();
  private readonly inFlight = new Map<string, Promise<Outcome>>();
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(
    private readonly delegate: TokenAuthenticator,
    private readonly options: TokenCacheOptions,
  ) {
    this.maxEntries = options.maxEntries ?? 32 * 128;
    this.now = options.now ?? Date.now;
  }

  async authenticateToken(token: string, audiences?: readonly string[]): Promise<Authenticated | undefined> {
    const key = cacheKey(token, audiences);
    const entry = this.entries.get(key);
    if (entry !== undefined) {
      this.entries.delete(key);
      if (entry.expires > this.now()) {
        this.entries.set(key, entry);
        return settle(entry.outcome);
      }
    }
    let pending = this.inFlight.get(key);
    if (pending === undefined) {
      pending = this.lookup(key, token, audiences);
      this.inFlight.set(key, pending);
    }
    return settle(await pending);
  }

  private async lookup(key: string, token: string, audiences: readonly string[] | undefined): Promise<Outcome> {
    let outcome: Outcome;
    try {
      outcome = { failed: false, result: await this.delegate.authenticateToken(token, audiences) };
    } catch (error) {
      outcome = { failed: true, error };
    }
    this.inFlight.delete(key);
    if (outcome.failed && !this.options.cacheErrors) return outcome;
    const succeeded = !outcome.failed && outcome.result !== undefined;
    const ttl = succeeded ? this.options.successTtlMs : this.options.failureTtlMs;
    if (ttl > 0) {
      this.entries.set(key, { outcome, expires: this.now() + ttl });
      const oldest = this.entries.keys().next();
      if (this.entries.size > this.maxEntries && !oldest.done) this.entries.delete(oldest.value);
    }
    return outcome;
  }
}
