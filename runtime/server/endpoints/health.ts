// /livez, /readyz and /healthz as kube-apiserver's healthz package answers them: `ok`, or with `?verbose` one
// `[+]<check> ok` line per check and a closing `<endpoint> check passed`; `?exclude=<check>` skips a check;
// `/<endpoint>/<check>` runs one. Failures answer 500 and withhold the reason, which goes to the log.

export interface HealthCheck {
  name: string;
  /** Throws (or rejects) when unhealthy. */
  check(): void | Promise<void>;
}

export interface HealthChecks {
  livez: HealthCheck[];
  readyz: HealthCheck[];
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

export function checksOf(checks: HealthChecks, endpoint: HealthEndpoint): HealthCheck[] {
  return endpoint === "readyz" ? checks.readyz : checks.livez;
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
