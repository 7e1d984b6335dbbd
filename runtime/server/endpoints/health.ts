// /livez, /readyz and /healthz as kube-apiserver's healthz package answers them: `ok`, or with `?verbose` one
// `[+]<check> ok` line per check and a closing `<endpoint> check passed`; `?exclude=<check>` skips a check;
// `/<endpoint>/<check>` runs one. Failures answer 500 and withhold the reason, which goes to the log.
// The checks carry kube's names: `ping`, `log`, `etcd` (the store), `etcd-readiness`, `informer-sync`,
// `poststarthook/<name>` (post-start-hooks.ts) and `shutdown`.

import type { Writable } from "node:stream";
import type { Store } from "../../storage/store.js";

export interface HealthCheck {
  name: string;
  /** Throws (or rejects) when unhealthy. */
  check(): void | Promise<void>;
}

export interface HealthChecks {
  /** /livez and /healthz: these, then the post-start hooks. */
  livez: HealthCheck[];
  /** /readyz: these, then the post-start hooks, then `shutdown`. */
  readyz: HealthCheck[];
  postStartHooks?: { checks(): HealthCheck[] };
  shutdown?: HealthCheck;
  /**
   * `--livez-grace-period`: until this time (ms since the epoch) /livez counts the post-start hooks as ok,
   * as kube delays its boot-sequence checks there; /healthz and /readyz are not delayed.
   */
  livezGraceEndsAt?: number;
}

export type HealthEndpoint = "livez" | "readyz" | "healthz";

export interface HealthAnswer {
  code: number;
  body: string;
}

export const ping: HealthCheck = { name: "ping", check() {} };

/** Fails once the server has begun to close, so load balancers stop sending before connections drop. */
export function shutdownCheck(isClosing: () => boolean): HealthCheck {
  return {
    name: "shutdown",
    check() {
      if (isClosing()) throw new Error("process is shutting down");
    },
  };
}

/** kube's `--etcd-healthcheck-timeout` and `--etcd-readycheck-timeout` default. */
const storeCheckTimeoutMs = 2000;

/** A round trip to the store within the timeout, as kube's `etcd` and `etcd-readiness` checks make to etcd. */
export function storeCheck(name: "etcd" | "etcd-readiness", store: Pick<Store, "probe">): HealthCheck {
  return {
    name,
    async check() {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error("context deadline exceeded")), storeCheckTimeoutMs);
      });
      try {
        await Promise.race([store.probe(), timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/**
 * kube's `log` check: the log sink is flushed once a minute (an empty write whose callback says it went
 * through), and the check fails once no flush went through for two minutes. The flushes start with the
 * first check.
 */
export class LogCheck implements HealthCheck {
  readonly name = "log";
  private lastVerified = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly sink: Pick<Writable, "write">,
    private readonly now: () => number = Date.now,
    private readonly flushEveryMs = 60_000,
  ) {}

  check(): void {
    if (this.timer === undefined) {
      this.lastVerified = this.now();
      this.flush();
      this.timer = setInterval(() => this.flush(), this.flushEveryMs);
      this.timer.unref();
    }
    if (this.now() - this.lastVerified >= 2 * this.flushEveryMs) throw new Error("logging blocked");
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private flush(): void {
    try {
      this.sink.write("", (error) => {
        if (!error) this.lastVerified = this.now();
      });
    } catch {
      // A sink that throws is not flushed: the check fails once the last flush is too old.
    }
  }
}

/** A check that passes until `endsAt`, then checks. */
function inGracePeriod(check: HealthCheck, endsAt: number): HealthCheck {
  return {
    name: check.name,
    check: () => (Date.now() > endsAt ? check.check() : undefined),
  };
}

export function checksOf(checks: HealthChecks, endpoint: HealthEndpoint): HealthCheck[] {
  const hooks = checks.postStartHooks?.checks() ?? [];
  if (endpoint === "livez" && checks.livezGraceEndsAt !== undefined) {
    const graceEndsAt = checks.livezGraceEndsAt;
    return [...checks.livez, ...hooks.map((hook) => inGracePeriod(hook, graceEndsAt))];
  }
  if (endpoint !== "readyz") return [...checks.livez, ...hooks];
  return [...checks.readyz, ...hooks, ...(checks.shutdown === undefined ? [] : [checks.shutdown])];
}

async function failure(check: HealthCheck): Promise<unknown> {
  try {
    await check.check();
    return undefined;
  } catch (error) {
    return error ?? new Error("failed");
  }
}

const quoted = (names: string[]) => names.map((n) => JSON.stringify(n)).join(",");

export async function runHealthChecks(
  endpoint: HealthEndpoint,
  checks: HealthCheck[],
  query: URLSearchParams,
  log: (message: string, error: unknown) => void,
  observe?: (name: string, ok: boolean) => void,
): Promise<HealthAnswer> {
  const excluded = new Set(query.getAll("exclude"));
  let lines = "";
  const failed: string[] = [];
  for (const check of checks) {
    if (excluded.delete(check.name)) {
      lines += `[+]${check.name} excluded: ok\n`;
      continue;
    }
    const error = await failure(check);
    observe?.(check.name, error === undefined);
    if (error === undefined) {
      lines += `[+]${check.name} ok\n`;
    } else {
      lines += `[-]${check.name} failed: reason withheld\n`;
      failed.push(check.name);
      log(`/${endpoint} check ${check.name} failed`, error);
    }
  }
  if (excluded.size > 0) {
    lines += `warn: some health checks cannot be excluded: no matches for ${quoted([...excluded].sort())}\n`;
  }
  if (failed.length > 0) return { code: 500, body: `${lines}${endpoint} check failed\n` };
  return { code: 200, body: query.has("verbose") ? `${lines}${endpoint} check passed\n` : "ok" };
}

/** One check alone; undefined when no check has that name. */
export async function runOneCheck(check: HealthCheck | undefined): Promise<HealthAnswer | undefined> {
  if (!check) return undefined;
  const error = await failure(check);
  if (error === undefined) return { code: 200, body: "ok" };
  return { code: 500, body: `internal server error: ${error instanceof Error ? error.message : String(error)}\n` };
}
