// The health check SLIs kube-apiserver serves at /metrics/slis (not at /metrics): each check's last result
// (kubernetes_healthcheck) and a count of results (kubernetes_healthchecks_total), recorded when /livez,
// /readyz or /healthz runs its checks.
import type { Counter, Gauge } from "prom-client";
import { MetricRegistry } from "./metric-registry.js";

export class HealthMetrics {
  /** A registry of its own: /metrics/slis serves these families alone. */
  readonly registry = new MetricRegistry({ meta: false });
  readonly #last: Gauge<"name" | "type">;
  readonly #results: Counter<"name" | "status" | "type">;

  constructor() {
    this.#last = this.registry.gauge({
      name: "kubernetes_healthcheck",
      help: "This metric records the result of a single healthcheck.",
      labelNames: ["name", "type"],
      stabilityLevel: "STABLE",
    });
    this.#results = this.registry.counter({
      name: "kubernetes_healthchecks_total",
      help: "This metric records the results of all healthcheck.",
      labelNames: ["name", "status", "type"],
      stabilityLevel: "STABLE",
    });
    this.registry
      .gauge({
        name: "process_start_time_seconds",
        help: "Start time of the process since unix epoch in seconds.",
        stabilityLevel: "ALPHA",
      })
      .set(Math.floor(performance.timeOrigin) / 1000);
  }

  observe(type: string, name: string, ok: boolean): void {
    this.#last.set({ name, type }, ok ? 1 : 0);
    this.#results.inc({ name, status: ok ? "success" : "error", type });
  }
}

const perRegistry = new WeakMap<MetricRegistry, HealthMetrics>();

/** The health SLIs of the server whose registry is `metrics`, created on first use. */
export function healthMetrics(metrics: MetricRegistry): HealthMetrics {
  let health = perRegistry.get(metrics);
  if (health === undefined) {
    health = new HealthMetrics();
    perRegistry.set(metrics, health);
  }
  return health;
}
