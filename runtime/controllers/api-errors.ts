// What controllers ask of a failed call, as client-go's apierrors predicates do.
import { StatusError, type StatusReason } from "../errors/status-error.js";

/** The HTTP code of a StatusError; undefined for anything else. */
export function statusCode(error: unknown): number | undefined {
  return error instanceof StatusError ? error.code : undefined;
}

export function statusReason(error: unknown): StatusReason | undefined {
  return error instanceof StatusError ? error.reason : undefined;
}

/** kube's HasStatusCause: the error's details carry a cause of this reason. */
export function hasStatusCause(error: unknown, reason: string): boolean {
  return error instanceof StatusError && (error.status.details?.causes ?? []).some((c) => c.reason === reason);
}
