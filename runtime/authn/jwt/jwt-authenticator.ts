// One JWTAuthenticator of an AuthenticationConfiguration as a token authenticator (kube's OIDC
// jwtAuthenticator). Tokens whose unverified `iss` is not this issuer are not its own (another
// authenticator may take them). In the background it reads the issuer's discovery document and key set,
// retrying every 10 s until the discovery succeeds; until then its tokens fail with
// `oidc: authenticator not initialized`. A request calls the issuer only to refresh keys for an unknown
// key id. Verification follows go-oidc (issuer, audience, expiry without leeway, not-before with one
// minute, algorithm, signature), then the claim mappings and rules.

import { type Authenticated, AuthenticationError, type TokenAuthenticator } from "../../access/authenticator.js";
import { formatFieldErrors } from "../../errors/format-field-error.js";
import { goQuote } from "../../errors/go-format.js";
import { AuthenticationConfigError } from "./authentication-config.js";
import type { JWTAuthenticator } from "./authentication-configuration.js";
import { goQuoteList, goTime, parseIdToken, untrustedIssuer } from "./id-token.js";
import { IssuerClient } from "./issuer-client.js";
import { RemoteKeySet } from "./issuer-keys.js";
import { userFromClaims } from "./map-claims.js";
import { discoverProvider } from "./oidc-discovery.js";
import { type CompiledJwtRules, compileJwtAuthenticator } from "./validate-authentication-config.js";

/** Every algorithm kube accepts when an authentication configuration file is used, sorted. */
export const signingAlgorithms = ["ES256", "ES384", "ES512", "PS256", "PS384", "PS512", "RS256", "RS384", "RS512"];

const notBeforeLeewayMs = 60_000;

export interface JwtAuthenticatorOptions {
  /** Issuers no JWT authenticator may use: kube passes `--service-account-issuer`'s values. */
  disallowedIssuers?: readonly string[];
  /** Shortest time between key fetches that tokens with unknown key ids cause (default 10 s). */
  keyRefreshIntervalMs?: number;
  /** Wait between failed discovery attempts (kube: 10 s). */
  retryIntervalMs?: number;
  /** The clock, in milliseconds since the epoch. */
  now?: () => number;
  /** Where background failures are reported (kube logs them). */
  log?: (message: string) => void;
}

export class JwtAuthenticator implements TokenAuthenticator {
  private readonly rules: CompiledJwtRules;
  private readonly client: IssuerClient;
  private readonly abort = new AbortController();
  private readonly now: () => number;
  private keys: RemoteKeySet | undefined;
  private problem: string;
  private retry: NodeJS.Timeout | undefined;
  private readonly ready: Promise<void>;

  /** Throws AuthenticationConfigError when the configuration is invalid. */
  constructor(
    readonly config: JWTAuthenticator,
    private readonly options: JwtAuthenticatorOptions = {},
  ) {
    const { rules, errors } = compileJwtAuthenticator(config, options.disallowedIssuers ?? []);
    if (errors.length > 0) throw new AuthenticationConfigError(formatFieldErrors(errors));
    this.rules = rules;
    this.now = options.now ?? Date.now;
    const ca = config.issuer.certificateAuthority;
    this.client = new IssuerClient(ca === "" ? undefined : ca);
    this.problem = `oidc: authenticator for issuer "${config.issuer.url}" is not initialized`;
    this.ready = new Promise((resolve) => this.initialize(resolve));
  }

  /** Discovery, then the first key fetch (whose failure only defers keys to the first token). */
  private initialize(done: () => void): void {
    const { url, discoveryURL } = this.config.issuer;
    discoverProvider(this.client, url, discoveryURL, this.abort.signal).then(
      async (provider) => {
        const keys = new RemoteKeySet(
          this.client,
          provider.jwksUri,
          this.options.keyRefreshIntervalMs ?? 10_000,
          this.now,
        );
        await keys.refresh(this.abort.signal).catch((error: Error) => this.report(error));
        this.keys = keys;
        this.problem = "";
        done();
      },
      (error: Error) => {
        this.problem = error.message;
        if (this.abort.signal.aborted) return done();
        this.report(error);
        this.retry = setTimeout(() => this.initialize(done), this.options.retryIntervalMs ?? 10_000);
        this.retry.unref();
      },
    );
  }

  private report(error: Error): void {
    if (!this.abort.signal.aborted) this.options.log?.(`oidc authenticator: initializing plugin: ${error.message}`);
  }

  /** Resolves once the issuer's discovery document (and a first key set) is in, or the authenticator is closed. */
  whenReady(): Promise<void> {
    return this.ready;
  }

  /** kube's HealthCheck: undefined once initialized, else why not. */
  healthCheck(): string | undefined {
    if (this.problem === "") return undefined;
    return `oidc: authenticator for issuer "${this.config.issuer.url}" is not healthy: ${this.problem}`;
  }

  close(): void {
    this.abort.abort();
    clearTimeout(this.retry);
  }

  async authenticateToken(token: string): Promise<Authenticated | undefined> {
    if (untrustedIssuer(token) !== this.config.issuer.url) return undefined;
    const keys = this.keys;
    if (keys === undefined) throw new AuthenticationError("oidc: authenticator not initialized");
    let claims: Record<string, unknown>;
    try {
      claims = await this.verify(token, keys);
    } catch (error) {
      throw new AuthenticationError(`oidc: verify token: ${(error as Error).message}`);
    }
    return { user: userFromClaims(this.config, this.rules, claims) };
  }

  /** go-oidc's IDTokenVerifier.Verify and kube's audience check; throws their messages. */
  private async verify(token: string, keys: RemoteKeySet): Promise<Record<string, unknown>> {
    const parsed = parseIdToken(token);
    const { audiences } = this.config.issuer;
    const [only] = audiences;
    if (audiences.length === 1 && only !== undefined && !parsed.audience.includes(only)) {
      throw new Error(`oidc: expected audience ${goQuote(only)} got ${goQuoteList(parsed.audience)}`);
    }
    const now = this.now();
    const expiry = parsed.expiry === undefined ? undefined : parsed.expiry * 1000;
    if (expiry === undefined || expiry < now) {
      throw new Error(`oidc: token is expired (Token Expiry: ${goTime(expiry)})`);
    }
    if (parsed.notBefore !== undefined && now + notBeforeLeewayMs < parsed.notBefore * 1000) {
      throw new Error(
        `oidc: current time ${goTime(now)} before the nbf (not before) time: ${goTime(parsed.notBefore * 1000)}`,
      );
    }
    if (!signingAlgorithms.includes(parsed.alg)) {
      throw new Error(
        `oidc: id token signed with unsupported algorithm, expected ${goQuoteList(signingAlgorithms)} got ${goQuote(parsed.alg)}`,
      );
    }
    try {
      await keys.verify(token, parsed.kid, parsed.alg);
    } catch (error) {
      throw new Error(`failed to verify signature: ${(error as Error).message}`);
    }
    if (audiences.length > 1 && !parsed.audience.some((a) => audiences.includes(a))) {
      const wanted = goQuoteList([...new Set(audiences)].sort());
      throw new Error(`oidc: expected audience in ${wanted} got ${goQuoteList(parsed.audience)}`);
    }
    return parsed.claims;
  }
}
