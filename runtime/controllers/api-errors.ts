// What controllers ask of a failed call, as client-go's apierrors predicates do.
import { StatusError, type StatusReason } from "../errors/status-error.js";
import { retryLater } from "./work-queue.js";

/** The HTTP code of a StatusError; undefined for anything else. */
export function statusCode(error: unknown): number | undefined {
  return error instanceof StatusError ? error.code : undefined;
}

export function statusReason(error: unknown): StatusReason | undefined {
  return error instanceof StatusError ? error.reason : undefined;
}

/**
 * A failed write as the outcome of a sync: nothing left to do when the object is gone, look again later
 * when it changed under the write (a conflict); any other failure is thrown.
 */
export function outcomeOfWriteFailure(error: unknown): typeof retryLater | undefined {
  const code = statusCode(error);
  if (code === 404) return undefined;
  if (code === 409) return retryLater;
  throw error;
}

/** kube's HasStatusCause: the error's details carry a cause of this reason. */
export function hasStatusCause(error: unknown, reason: string): boolean {
  return error instanceof StatusError && (error.status.details?.causes ?? []).some((c) => c.reason === reason);
}
