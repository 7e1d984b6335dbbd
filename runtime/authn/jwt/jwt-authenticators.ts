// The JWT authenticators of an AuthenticationConfiguration together, as kube-apiserver chains them: in
// configuration order, the first error ending the search (issuers are unique, so only one can claim a
// token). They know nothing of the API server's audiences: kube wraps the set audience-agnostic
// (union.ts's AudienceAgnosticTokenAuthenticator). A new configuration replaces the set only once every
// new authenticator has initialized.
import type { Authenticated, TokenAuthenticator } from "../../access/authenticator.js";
import type { JWTAuthenticator } from "./authentication-configuration.js";
import { JwtAuthenticator, type JwtAuthenticatorOptions } from "./jwt-authenticator.js";

export interface JwtAuthenticatorsOptions extends JwtAuthenticatorOptions {
  /** How long a replaced set keeps serving requests already holding it before it is closed (kube: 1 min). */
  retireAfterMs?: number;
}

/** kube's UpdateAuthenticationConfigTimeout. */
const updateTimeoutMs = 2 * 60_000;

export class JwtAuthenticators implements TokenAuthenticator {
  private current: readonly JwtAuthenticator[];
  /** Replaced sets still serving in-flight requests, closed when their timer fires or on close(). */
  private readonly retiring = new Map<NodeJS.Timeout, readonly JwtAuthenticator[]>();

  /** Throws AuthenticationConfigError for an invalid authenticator (validate the file first for full paths). */
  constructor(
    jwt: readonly JWTAuthenticator[],
    private readonly options: JwtAuthenticatorsOptions = {},
  ) {
    this.current = this.build(jwt);
  }

  private build(jwt: readonly JWTAuthenticator[]): JwtAuthenticator[] {
    const built: JwtAuthenticator[] = [];
    try {
      for (const config of jwt) built.push(new JwtAuthenticator(config, this.options));
    } catch (error) {
      for (const authenticator of built) authenticator.close();
      throw error;
    }
    return built;
  }

  async authenticateToken(token: string): Promise<Authenticated | undefined> {
    for (const authenticator of this.current) {
      const result = await authenticator.authenticateToken(token);
      if (result !== undefined) return result;
    }
    return undefined;
  }

  /** Resolves when every authenticator has initialized (or been closed). */
  async whenReady(): Promise<void> {
    await Promise.all(this.current.map((authenticator) => authenticator.whenReady()));
  }

  /** The authenticators' problems joined as kube aggregates them; undefined when all are healthy. */
  healthCheck(authenticators: readonly JwtAuthenticator[] = this.current): string | undefined {
    const problems = [...new Set(authenticators.map((a) => a.healthCheck()).filter((p) => p !== undefined))];
    if (problems.length === 0) return undefined;
    return problems.length === 1 ? problems[0] : `[${problems.join(", ")}]`;
  }

  /**
   * kube's updateAuthenticationConfig: builds the new authenticators, waits until they are healthy, then
   * swaps them in and retires the old ones. On an invalid configuration or a time-out the old set stays.
   */
  async update(jwt: readonly JWTAuthenticator[], timeoutMs = updateTimeoutMs): Promise<void> {
    const next = this.build(jwt);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), timeoutMs);
    });
    const outcome = await Promise.race([Promise.all(next.map((a) => a.whenReady())), timedOut]);
    clearTimeout(timer);
    const problem = this.healthCheck(next);
    if (outcome === "timeout" || problem !== undefined) {
      for (const authenticator of next) authenticator.close();
      throw new Error(problem ?? "context deadline exceeded");
    }
    const previous = this.current;
    this.current = next;
    const retire = setTimeout(() => {
      this.retiring.delete(retire);
      for (const authenticator of previous) authenticator.close();
    }, this.options.retireAfterMs ?? 60_000);
    retire.unref();
    this.retiring.set(retire, previous);
  }

  close(): void {
    for (const authenticator of this.current) authenticator.close();
    for (const [timer, set] of this.retiring) {
      clearTimeout(timer);
      for (const authenticator of set) authenticator.close();
    }
    this.retiring.clear();
  }
}
