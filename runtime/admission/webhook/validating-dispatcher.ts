// The ValidatingAdmissionWebhook's pass over one request, as kube's validating dispatcher makes it: every
// matching webhook is found first (a matching error stops the request before any call), then all are called
// at once; the request fails with the first failure to arrive, a rejection as the webhook gave it, a failure
// to call a webhook under failurePolicy Fail as an internal error.
import { internal } from "../../errors/status-error.js";
import type { AdmissionAttributes } from "../admission.js";
import type { AdmissionMetrics } from "../admission-metrics.js";
import { callWebhook, outcomeOf, recordCall, type VersionedObjects } from "./call-webhook.js";
import type { Webhook } from "./webhook-configurations.js";
import { type Invocation, type RequestMatcher, versionedObject } from "./webhook-matcher.js";
import type { TransportOptions } from "./webhook-transport.js";

export interface ValidatingDispatch {
  matcher: RequestMatcher;
  transport: TransportOptions;
  metrics: AdmissionMetrics;
}

/** Runs the webhooks over the request; throws what the request is answered with. */
export async function dispatchValidating(
  webhooks: readonly Webhook[],
  a: AdmissionAttributes,
  d: ValidatingDispatch,
): Promise<void> {
  const relevant: Invocation[] = [];
  const versions = new Map<string, VersionedObjects>();
  for (const webhook of webhooks) {
    const invocation = await d.matcher.shouldCall(webhook);
    if (invocation === undefined) continue;
    relevant.push(invocation);
    const version = invocation.kind.version;
    if (!versions.has(version)) {
      versions.set(version, {
        object: await versionedObject(a.kind, a.object, version),
        oldObject: await versionedObject(a.kind, a.oldObject, version),
      });
    }
  }
  if (relevant.length === 0) return;

  const failures: unknown[] = [];
  await Promise.all(
    relevant.map(async (invocation, index) => {
      const { spec } = invocation.webhook;
      const ignore = spec.failurePolicy === "Ignore";
      const started = performance.now();
      let failure: unknown;
      try {
        await callWebhook(invocation, a, versions.get(invocation.kind.version) as VersionedObjects, false, d.transport);
      } catch (error) {
        failure = error;
      }
      const outcome = outcomeOf(failure);
      recordCall(d.metrics, spec.name, "validating", a, outcome, ignore, (performance.now() - started) / 1000);
      switch (outcome.kind) {
        case "ok":
          return;
        case "calling":
          if (ignore) {
            d.metrics.webhookFailOpen(spec.name, "validating");
            a.request?.annotate(`failed-open.validating.webhook.admission.k8s.io/round_0_index_${index}`, spec.name);
            return;
          }
          failures.push(internal(outcome.error.message));
          return;
        case "rejected":
          failures.push(outcome.status);
          return;
        case "other":
          failures.push(outcome.error);
      }
    }),
  );
  if (failures.length > 0) throw failures[0];
}
