// Admission's measurements, under the metric families kube-apiserver reports them in
// (apiserver_admission_*): counts and summed durations per label set, kept in memory until /metrics
// exports them. The chain records steps and plugins; the webhook plugins record each webhook call.

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

export class AdmissionMetrics {
  readonly #samples = new Map<string, AdmissionSample>();

  #observe(family: string, labels: Record<string, string>, value: number): void {
    const key = `${family}${JSON.stringify(labels)}`;
    let sample = this.#samples.get(key);
    if (sample === undefined) {
      sample = { family, labels, count: 0, sum: 0 };
      this.#samples.set(key, sample);
    }
    sample.count++;
    sample.sum += value;
  }

  /** A whole mutating or validating pass of the chain. */
  step(type: AdmissionStepType, operation: string, rejected: boolean, seconds: number): void {
    this.#observe(
      "apiserver_admission_step_admission_duration_seconds",
      { type, operation, rejected: `${rejected}` },
      seconds,
    );
  }

  /** One plugin's step. */
  controller(name: string, type: AdmissionStepType, operation: string, rejected: boolean, seconds: number): void {
    const labels = { name, type, operation, rejected: `${rejected}` };
    this.#observe("apiserver_admission_controller_admission_duration_seconds", labels, seconds);
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
    this.#observe("apiserver_admission_webhook_admission_duration_seconds", labels, seconds);
    this.#observe("apiserver_admission_webhook_request_total", { ...labels, code: `${code}` }, 1);
  }

  /** A request a webhook rejected, or that failed because calling it failed. */
  webhookRejection(
    name: string,
    type: WebhookCallType,
    operation: string,
    errorType: WebhookRejectionType,
    code: number,
  ): void {
    const labels = { name, type, operation, error_type: errorType, rejection_code: `${code}` };
    this.#observe("apiserver_admission_webhook_rejection_count", labels, 1);
  }

  /** A webhook that failed under failurePolicy Ignore, so the request went on. */
  webhookFailOpen(name: string, type: WebhookCallType): void {
    this.#observe("apiserver_admission_webhook_fail_open_count", { name, type }, 1);
  }

  /** Every sample recorded so far. */
  samples(): AdmissionSample[] {
    return [...this.#samples.values()].map((s) => ({ ...s }));
  }
}
