// kube's audit metrics (k8s.io/apiserver/pkg/audit/metrics.go): names, help texts and stability as kube's.
import type { Counter } from "prom-client";
import type { MetricRegistry } from "../metrics/metric-registry.js";
import type { Level } from "./audit-policy.js";

export class AuditMetrics {
  readonly #events: Counter;
  readonly #errors: Counter<"plugin">;
  readonly #levels: Counter<"level">;
  readonly #rejected: Counter;

  constructor(registry: MetricRegistry) {
    this.#events = registry.counter({
      name: "apiserver_audit_event_total",
      help: "Counter of audit events generated and sent to the audit backend.",
      stabilityLevel: "ALPHA",
    });
    this.#errors = registry.counter({
      name: "apiserver_audit_error_total",
      help: "Counter of audit events that failed to be audited properly. Plugin identifies the plugin affected by the error.",
      labelNames: ["plugin"],
      stabilityLevel: "ALPHA",
    });
    this.#levels = registry.counter({
      name: "apiserver_audit_level_total",
      help: "Counter of policy levels for audit events (1 per request).",
      labelNames: ["level"],
      stabilityLevel: "ALPHA",
    });
    this.#rejected = registry.counter({
      name: "apiserver_audit_requests_rejected_total",
      help: "Counter of apiserver requests rejected due to an error in audit logging backend.",
      stabilityLevel: "ALPHA",
    });
  }

  observeEvent(): void {
    this.#events.inc();
  }

  observePolicyLevel(level: Level): void {
    this.#levels.inc({ level });
  }

  pluginError(plugin: string, count: number): void {
    this.#errors.inc({ plugin }, count);
  }

  requestRejected(): void {
    this.#rejected.inc();
  }
}
