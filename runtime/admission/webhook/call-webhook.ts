// One webhook's review of one request, the part the mutating and validating dispatchers share: kube's dry
// run check of sideEffects, the review at the matched version, the POST, the answer's checks, and its audit
// annotations (prefixed with the webhook's name) and warnings. A rejection is thrown as a WebhookRejection,
// a failure to get an answer as a CallingWebhookError.
import { randomUUID } from "node:crypto";
import { badRequest, type StatusError, serviceUnavailable } from "../../errors/status-error.js";
import type { KubeObject } from "../../object/kube-object.js";
import { type AdmissionAttributes, admissionOptions, objectKindOf } from "../admission.js";
import type { AdmissionMetrics, WebhookCallType } from "../admission-metrics.js";
import { userOf } from "../policy/policy-inputs.js";
import {
  type AdmissionResponse,
  admissionReview,
  InvalidResponse,
  reviewVersionOf,
  verifyResponse,
} from "./admission-review.js";
import { CallingWebhookError, dryRunUnsupported, rejectionStatus, WebhookRejection } from "./webhook-errors.js";
import type { Invocation } from "./webhook-matcher.js";
import { postReview, type TransportOptions } from "./webhook-transport.js";

/** The request's objects at the version the webhook matched. */
export interface VersionedObjects {
  object: KubeObject | undefined;
  oldObject: KubeObject | undefined;
}

/** Calls the webhook and hands back its (allowing) answer; throws as the comment at the top says. */
export async function callWebhook(
  invocation: Invocation,
  a: AdmissionAttributes,
  objects: VersionedObjects,
  mutating: boolean,
  transport: TransportOptions,
): Promise<AdmissionResponse> {
  const { spec } = invocation.webhook;
  if (a.dryRun) {
    if (spec.sideEffects === undefined) {
      throw new CallingWebhookError(spec.name, "Webhook SideEffects is nil", badRequest("Webhook SideEffects is nil"));
    }
    if (spec.sideEffects !== "None" && spec.sideEffects !== "NoneOnDryRun") throw dryRunUnsupported(spec.name);
  }
  const version = reviewVersionOf(spec.admissionReviewVersions);
  if (version === undefined) {
    throw new CallingWebhookError(
      spec.name,
      "could not create admission objects: webhook does not accept known AdmissionReview versions (v1, v1beta1)",
      badRequest("error creating admission objects"),
    );
  }
  const uid = randomUUID();
  const { kind } = invocation;
  const review = admissionReview(version, {
    uid,
    kind: a.subresourceKind ?? { group: kind.group, version: kind.version, kind: kind.kind },
    resource: { group: kind.group, version: kind.version, resource: kind.resource.plural },
    subResource: a.subresource ?? "",
    requestKind: objectKindOf(a),
    requestResource: { group: a.kind.group, version: a.kind.version, resource: a.kind.resource.plural },
    requestSubResource: a.subresource ?? "",
    name: a.name,
    namespace: a.namespace ?? "",
    operation: a.operation,
    user: userOf(a),
    object: objects.object,
    oldObject: objects.oldObject,
    dryRun: a.dryRun,
    options: admissionOptions(a),
  });
  const body = await postReview(spec, review, transport);
  let response: AdmissionResponse;
  try {
    response = verifyResponse(uid, mutating, version, body);
  } catch (error) {
    const reason =
      error instanceof InvalidResponse
        ? `received invalid webhook response: ${error.message}`
        : `failed to call webhook: ${(error as Error).message}`;
    throw new CallingWebhookError(
      spec.name,
      reason,
      serviceUnavailable(
        error instanceof InvalidResponse ? "error validating webhook response" : "error calling webhook",
      ),
    );
  }
  for (const [key, value] of Object.entries(response.auditAnnotations))
    a.request?.annotate(`${spec.name}/${key}`, value);
  for (const warning of response.warnings) a.request?.warn(warning);
  if (!response.allowed) throw new WebhookRejection(rejectionStatus(spec.name, response.result));
  return response;
}

/** What a failed call was, for the metrics and for what the request is answered. */
export type CallOutcome =
  | { kind: "ok" }
  | { kind: "calling"; error: CallingWebhookError }
  | { kind: "rejected"; status: StatusError }
  | { kind: "other"; error: unknown };

export function outcomeOf(error: unknown): CallOutcome {
  if (error === undefined) return { kind: "ok" };
  if (error instanceof CallingWebhookError) return { kind: "calling", error };
  if (error instanceof WebhookRejection) return { kind: "rejected", status: error.status };
  return { kind: "other", error };
}

/** kube's metrics of one call: its latency and HTTP answer, and the rejection when it refused the request. */
export function recordCall(
  metrics: AdmissionMetrics,
  name: string,
  type: WebhookCallType,
  a: AdmissionAttributes,
  outcome: CallOutcome,
  ignoreFailures: boolean,
  seconds: number,
): void {
  switch (outcome.kind) {
    case "ok":
      metrics.webhook(name, type, a.operation, false, seconds, 200);
      return;
    case "calling": {
      const code = outcome.error.status.code;
      if (!ignoreFailures) metrics.webhookRejection(name, type, a.operation, "calling_webhook_error", code);
      metrics.webhook(name, type, a.operation, !ignoreFailures, seconds, code);
      return;
    }
    case "rejected":
      metrics.webhookRejection(name, type, a.operation, "no_error", outcome.status.code);
      metrics.webhook(name, type, a.operation, true, seconds, outcome.status.code);
      return;
    case "other":
      metrics.webhookRejection(name, type, a.operation, "apiserver_internal_error", 0);
      metrics.webhook(name, type, a.operation, true, seconds, 0);
  }
}
