// kube's webhook audit backend: each batch of events is POSTed as an audit.k8s.io/v1 EventList to the server the
// kubeconfig of `--audit-webhook-config-file` names, retried with backoff from `--audit-webhook-initial-backoff`
// (×1.5, 20% jitter, 5 attempts) while the failure is one kube's webhook client retries.
import { postJsonWithRetry, type WebhookClient } from "../http/webhook-client.js";
import type { AuditEvent } from "./audit-sink.js";

const requestTimeoutMs = 30_000;

export function eventList(events: readonly AuditEvent[]): unknown {
  return {
    kind: "EventList",
    apiVersion: "audit.k8s.io/v1",
    metadata: {},
    items: events.map(({ kind: _kind, apiVersion: _apiVersion, ...item }) => item),
  };
}

/** Sends one batch; rejects (after the retries) when the webhook never accepted it. */
export async function sendToWebhook(
  client: WebhookClient,
  events: readonly AuditEvent[],
  initialBackoffMs: number,
): Promise<void> {
  const response = await postJsonWithRetry(client, eventList(events), requestTimeoutMs, {
    initialDelayMs: initialBackoffMs,
    factor: 1.5,
    jitter: 0.2,
    attempts: 5,
  });
  if (response.status < 200 || response.status >= 300) {
    throw new Error(`the audit webhook answered ${response.status}`);
  }
}
