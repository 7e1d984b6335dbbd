// How kube-apiserver answers a failed custom resource conversion. The converter returns plain Go errors,
// which no layer wraps into an API status, so ErrorToAPIStatus answers 500 with the error's text and no
// reason (StatusReasonUnknown): on reads and writes alike, and kubectl prints `Error from server: <text>`.
import { StatusError } from "../../errors/status-error.js";

/** A 500 without a reason: kube's StatusReasonUnknown. */
export function conversionFailure(message: string): StatusError {
  return new StatusError(500, undefined, message);
}
