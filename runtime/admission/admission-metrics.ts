// Admission's measurements, under the metric families kube-apiserver reports them in
// (apiserver_admission_*), on the server's metric registry. The chain records steps and plugins; the webhook
// plugins record each webhook call.
import type { Counter, Histogram, MetricValue } from "prom-client";
import { MetricRegistry } from "../metrics/metric-registry.js";

export type AdmissionStepType = "admit" | "validate";

/** kube labels a webhook's calls `admit` (mutating) or `validating`. */
export type WebhookCallType = "admit" | "validating";

/** One family's value for one label set: how many observations, and their sum (seconds, for durations). */
export interface AdmissionSample {
  family: string;
  labels: Readonly<Record<string, string>>;
  count: number;
  sum: number;
}

/** Why a webhook's answer was a rejection, as kube's rejection counter names it. */
export type WebhookRejectionType = "calling_webhook_error" | "apiserver_internal_error" | "no_error";

const stepBuckets = [0.005, 0.025, 0.1, 0.5, 1, 2.5];
const webhookBuckets = [0.005, 0.025, 0.1, 0.5, 1, 2.5, 10, 25];

/** kube truncates codes above 600 to 600, to bound the label's values. */
function codeLabel(code: number): string {
  return `${Math.min(code, 600)}`;
}

export class AdmissionMetrics {
  readonly #step: Histogram<"type" | "operation" | "rejected">;
  readonly #controller: Histogram<"name" | "type" | "operation" | "rejected">;
  readonly #webhook: Histogram<"name" | "type" | "operation" | "rejected">;
  readonly #webhookRequests: Counter<"name" | "type" | "operation" | "code" | "rejected">;
  readonly #webhookRejections: Counter<"name" | "type" | "operation" | "error_type" | "rejection_code">;
  readonly #webhookFailOpen: Counter<"name" | "type">;

  /** Families on `registry`; a registry of their own when none is given. */
  constructor(registry: MetricRegistry = new MetricRegistry()) {
    this.#step = registry.histogram({
      name: "apiserver_admission_step_admission_duration_seconds",
      help: "Admission sub-step latency histogram in seconds, broken out for each operation and API resource and step type (validate or admit).",
      labelNames: ["type", "operation", "rejected"],
      buckets: stepBuckets,
      stabilityLevel: "STABLE",
    });
    this.#controller = registry.histogram({
      name: "apiserver_admission_controller_admission_duration_seconds",
      help: "Admission controller latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).",
      labelNames: ["name", "type", "operation", "rejected"],
      buckets: stepBuckets,
      stabilityLevel: "STABLE",
    });
    this.#webhook = registry.histogram({
      name: "apiserver_admission_webhook_admission_duration_seconds",
      help: "Admission webhook latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).",
      labelNames: ["name", "type", "operation", "rejected"],
      buckets: webhookBuckets,
      stabilityLevel: "STABLE",
    });
    this.#webhookRejections = registry.counter({
      name: "apiserver_admission_webhook_rejection_count",
      help: "Admission webhook rejection count, identified by name and broken out for each admission type (validating or admit) and operation. Additional labels specify an error type (calling_webhook_error or apiserver_internal_error if an error occurred; no_error otherwise) and optionally a non-zero rejection code if the webhook rejects the request with an HTTP status code (honored by the apiserver when the code is greater or equal to 400). Codes greater than 600 are truncated to 600, to keep the metrics cardinality bounded.",
      labelNames: ["name", "type", "operation", "error_type", "rejection_code"],
      stabilityLevel: "ALPHA",
    });
    this.#webhookFailOpen = registry.counter({
      name: "apiserver_admission_webhook_fail_open_count",
      help: "Admission webhook fail open count, identified by name and broken out for each admission type (validating or admit).",
      labelNames: ["name", "type"],
      stabilityLevel: "ALPHA",
    });
    this.#webhookRequests = registry.counter({
      name: "apiserver_admission_webhook_request_total",
      help: "Admission webhook request total, identified by name and broken out for each admission type (validating or admit) and operation. Additional labels specify whether the request was rejected or not and an HTTP status code. Codes greater than 600 are truncated to 600, to keep the metrics cardinality bounded.",
      labelNames: ["name", "type", "operation", "code", "rejected"],
      stabilityLevel: "ALPHA",
    });
  }

  /** A whole mutating or validating pass of the chain. */
  step(type: AdmissionStepType, operation: string, rejected: boolean, seconds: number): void {
    this.#step.observe({ type, operation, rejected: `${rejected}` }, seconds);
  }

  /** One plugin's step. */
  controller(name: string, type: AdmissionStepType, operation: string, rejected: boolean, seconds: number): void {
    this.#controller.observe({ name, type, operation, rejected: `${rejected}` }, seconds);
  }

  /** One webhook call, with the HTTP status it answered (0 when it could not be reached). */
  webhook(
    name: string,
    type: WebhookCallType,
    operation: string,
    rejected: boolean,
    seconds: number,
    code: number,
  ): void {
    const labels = { name, type, operation, rejected: `${rejected}` };
    this.#webhook.observe(labels, seconds);
    this.#webhookRequests.inc({ ...labels, code: codeLabel(code) });
  }

  /** A request a webhook rejected, or that failed because calling it failed. */
  webhookRejection(
    name: string,
    type: WebhookCallType,
    operation: string,
    errorType: WebhookRejectionType,
    code: number,
  ): void {
    this.#webhookRejections.inc({ name, type, operation, error_type: errorType, rejection_code: codeLabel(code) });
  }

  /** A webhook that failed under failurePolicy Ignore, so the request went on. */
  webhookFailOpen(name: string, type: WebhookCallType): void {
    this.#webhookFailOpen.inc({ name, type });
  }

  /** Every sample recorded so far: a histogram's count and sum, a counter's value as both. */
  async samples(): Promise<AdmissionSample[]> {
    const out: AdmissionSample[] = [];
    for (const histogram of [this.#step, this.#controller, this.#webhook]) {
      const { name, values } = await histogram.get();
      const sums = new Map<string, number>();
      for (const v of values) {
        if (v.metricName === `${name}_sum`) sums.set(labelKey(v), v.value);
      }
      for (const v of values) {
        if (v.metricName !== `${name}_count`) continue;
        out.push({
          family: name,
          labels: { ...v.labels } as Record<string, string>,
          count: v.value,
          sum: sums.get(labelKey(v)) ?? 0,
        });
      }
    }
    for (const counter of [this.#webhookRequests, this.#webhookRejections, this.#webhookFailOpen]) {
      const { name, values } = await counter.get();
      for (const v of values)
        out.push({ family: name, labels: { ...v.labels } as Record<string, string>, count: v.value, sum: v.value });
    }
    return out;
  }
}

function labelKey(value: MetricValue<string>): string {
  return JSON.stringify(
    Object.entries(value.labels)
      .filter(([k]) => k !== "le")
      .sort(),
  );
}
