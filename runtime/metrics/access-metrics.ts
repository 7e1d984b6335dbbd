// kube-apiserver's authentication and authorization families, recorded by the pipeline's stages: attempts
// and their durations by result, and authenticated requests by (compressed) user name.
import type { Counter, Histogram } from "prom-client";
import type { MetricRegistry } from "./metric-registry.js";

export type AuthenticationResult = "success" | "failure" | "error";
export type AuthorizationResult = "allowed" | "denied" | "no-opinion" | "error";

// 0.001 × 2^i for i < 15.
const accessBuckets = Array.from({ length: 15 }, (_, i) => 0.001 * 2 ** i);

// kube keeps a few well-known user names and folds every other one, to bound the label's values.
const keptUserNames = new Set([
  "admin",
  "client",
  "kube_proxy",
  "kubelet",
  "system:serviceaccount:kube-system:default",
]);

export function compressUsername(name: string): string {
  if (keptUserNames.has(name)) return name;
  return name.includes("@") ? "email_id" : "other";
}

export class AccessMetrics {
  readonly #users: Counter<"username">;
  readonly #authentications: Counter<"result">;
  readonly #authenticationLatency: Histogram<"result">;
  readonly #authorizations: Counter<"result">;
  readonly #authorizationLatency: Histogram<"result">;

  constructor(metrics: MetricRegistry) {
    this.#users = metrics.counter({
      name: "authenticated_user_requests",
      help: "Counter of authenticated requests broken out by username.",
      labelNames: ["username"],
      stabilityLevel: "ALPHA",
    });
    this.#authentications = metrics.counter({
      name: "authentication_attempts",
      help: "Counter of authenticated attempts.",
      labelNames: ["result"],
      stabilityLevel: "ALPHA",
    });
    this.#authenticationLatency = metrics.histogram({
      name: "authentication_duration_seconds",
      help: "Authentication duration in seconds broken out by result.",
      labelNames: ["result"],
      buckets: accessBuckets,
      stabilityLevel: "ALPHA",
    });
    this.#authorizations = metrics.counter({
      name: "authorization_attempts_total",
      help: "Counter of authorization attempts broken down by result. It can be either 'allowed', 'denied', 'no-opinion' or 'error'.",
      labelNames: ["result"],
      stabilityLevel: "ALPHA",
    });
    this.#authorizationLatency = metrics.histogram({
      name: "authorization_duration_seconds",
      help: "Authorization duration in seconds broken out by result.",
      labelNames: ["result"],
      buckets: accessBuckets,
      stabilityLevel: "ALPHA",
    });
  }

  /** One authentication; `user` is the name it found on success. */
  authenticated(result: AuthenticationResult, seconds: number, user?: string): void {
    if (user !== undefined) this.#users.inc({ username: compressUsername(user) });
    this.#authentications.inc({ result });
    this.#authenticationLatency.observe({ result }, seconds);
  }

  authorized(result: AuthorizationResult, seconds: number): void {
    this.#authorizations.inc({ result });
    this.#authorizationLatency.observe({ result }, seconds);
  }
}

const perRegistry = new WeakMap<MetricRegistry, AccessMetrics>();

export function accessMetrics(metrics: MetricRegistry): AccessMetrics {
  let access = perRegistry.get(metrics);
  if (access === undefined) {
    access = new AccessMetrics(metrics);
    perRegistry.set(metrics, access);
  }
  return access;
}
