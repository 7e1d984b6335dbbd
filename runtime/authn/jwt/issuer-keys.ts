// An issuer's signing keys (its JWKS at `jwks_uri`), fetched when the authenticator starts and again
// only when a token names a key the set lacks: at most one fetch at a time, and token-triggered fetches
// no closer together than `refreshIntervalMs`, so that a stream of tokens with made-up key ids cannot
// turn into a stream of requests to the issuer. Errors are go-oidc's (`failed to verify id token
// signature`, `oidc: get keys failed: 500 Internal Server Error …`).
import { createPublicKey, type KeyObject } from "node:crypto";
import { joseModule } from "../jose-module.js";
import { type IssuerClient, responseJson } from "./issuer-client.js";

interface PublicKey {
  kid?: string;
  /** The key's `alg`, when the set names one: tokens signed with another algorithm do not match it. */
  alg?: string;
  key: KeyObject;
}

/** The keys of a JWKS document that node can use; others (symmetric, unknown types) are left out. */
function parseKeySet(document: unknown): PublicKey[] {
  const entries = (document as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(entries)) throw new Error("oidc: failed to decode keys: no keys array");
  const keys: PublicKey[] = [];
  for (const entry of entries) {
    if (entry === null || typeof entry !== "object") continue;
    const jwk = entry as Record<string, unknown>;
    if (jwk.use !== undefined && jwk.use !== "sig") continue;
    try {
      const key = createPublicKey({ key: jwk, format: "jwk" });
      keys.push({
        key,
        ...(typeof jwk.kid === "string" ? { kid: jwk.kid } : {}),
        ...(typeof jwk.alg === "string" ? { alg: jwk.alg } : {}),
      });
    } catch {
      // go-jose would refuse the whole set for one bad key; keeping the good ones serves tokens better.
    }
  }
  return keys;
}

export class RemoteKeySet {
  private keys: PublicKey[] = [];
  private inflight: Promise<PublicKey[]> | undefined;
  /** When a token last caused a fetch; undefined until one has. */
  private lastTokenRefresh: number | undefined;

  constructor(
    private readonly client: IssuerClient,
    readonly jwksUri: string,
    private readonly refreshIntervalMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Fetches the keys (the first load, or a refresh); concurrent callers share one request. */
  refresh(signal?: AbortSignal): Promise<PublicKey[]> {
    this.inflight ??= this.fetchKeys(signal).finally(() => {
      this.inflight = undefined;
    });
    return this.inflight;
  }

  private async fetchKeys(signal?: AbortSignal): Promise<PublicKey[]> {
    let response: Awaited<ReturnType<IssuerClient["get"]>>;
    try {
      response = await this.client.get(this.jwksUri, signal);
    } catch (error) {
      throw new Error(`oidc: get keys failed ${(error as Error).message}`);
    }
    if (response.status !== 200) throw new Error(`oidc: get keys failed: ${response.statusLine} ${response.body}`);
    let document: unknown;
    try {
      document = responseJson(response);
    } catch (error) {
      throw new Error(`oidc: failed to decode keys: ${(error as Error).message} ${response.body}`);
    }
    this.keys = parseKeySet(document);
    return this.keys;
  }

  private async verifyWith(keys: readonly PublicKey[], token: string, kid: string | undefined, alg: string) {
    for (const candidate of keys) {
      if (kid !== undefined && kid !== "" && candidate.kid !== kid) continue;
      if (candidate.alg !== undefined && candidate.alg !== alg) continue;
      try {
        return (await (await joseModule()).compactVerify(token, candidate.key, { algorithms: [alg] })).payload;
      } catch {
        // Not this key: try the next.
      }
    }
    return undefined;
  }

  /**
   * The verified payload of a compact JWS whose header names `kid` (maybe none) and `alg`. A token no
   * cached key verifies causes a refresh when its key id is unknown and the rate limit allows.
   */
  async verify(token: string, kid: string | undefined, alg: string): Promise<Uint8Array> {
    const cached = await this.verifyWith(this.keys, token, kid, alg);
    if (cached !== undefined) return cached;
    const unknownKey = kid === undefined || kid === "" || !this.keys.some((k) => k.kid === kid);
    const now = this.now();
    const allowed = this.lastTokenRefresh === undefined || now - this.lastTokenRefresh >= this.refreshIntervalMs;
    if (!unknownKey || (!allowed && this.inflight === undefined)) {
      throw new Error("failed to verify id token signature");
    }
    if (this.inflight === undefined) this.lastTokenRefresh = now;
    let keys: PublicKey[];
    try {
      keys = await this.refresh();
    } catch (error) {
      throw new Error(`fetching keys ${(error as Error).message}`);
    }
    const refreshed = await this.verifyWith(keys, token, kid, alg);
    if (refreshed === undefined) throw new Error("failed to verify id token signature");
    return refreshed;
  }
}
