// The ways a webhook call ends badly, as kube tells them apart: calling it failed (unreachable, timed out,
// answered nonsense: failurePolicy decides), or it answered with a rejection (always refuses the request).
import { goQuote } from "../../errors/go-format.js";
import { badRequest, StatusError, type StatusReason } from "../../errors/status-error.js";
import { isJsonObject } from "../../object/json-object.js";

/** kube's ErrCallingWebhook: `status` is what the metrics record; the request fails with a 500 carrying the text. */
export class CallingWebhookError extends Error {
  constructor(
    readonly webhook: string,
    readonly reason: string,
    readonly status: StatusError,
  ) {
    super(`failed calling webhook ${goQuote(webhook)}: ${reason}`);
    this.name = "CallingWebhookError";
  }
}

/** kube's ErrWebhookRejection: the webhook said no. */
export class WebhookRejection extends Error {
  constructor(readonly status: StatusError) {
    super(status.message);
    this.name = "WebhookRejection";
  }
}

/** kube's ToStatusErr: the webhook's Status, made a failure of at least 400, its message naming the webhook. */
export function rejectionStatus(webhook: string, result: unknown): StatusError {
  const status = isJsonObject(result) ? result : {};
  const deniedBy = `admission webhook ${goQuote(webhook)} denied the request`;
  const code = typeof status.code === "number" && status.code >= 400 ? status.code : 400;
  const message = typeof status.message === "string" ? status.message : "";
  const reason = typeof status.reason === "string" ? status.reason : "";
  let text: string;
  if (message !== "") text = `${deniedBy}: ${message}`;
  else if (reason !== "") text = `${deniedBy}: ${reason}`;
  else text = `${deniedBy} without explanation`;
  const details = isJsonObject(status.details) ? status.details : undefined;
  return new StatusError(code, reason === "" ? undefined : (reason as StatusReason), text, details);
}

/** kube's NewDryRunUnsupportedErr. */
export function dryRunUnsupported(webhook: string): StatusError {
  return badRequest(`admission webhook ${goQuote(webhook)} does not support dry run`);
}
