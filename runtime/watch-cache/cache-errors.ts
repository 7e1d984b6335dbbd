// Failures of cache reads and watches, worded and coded as kube-apiserver's cacher and etcd3 store word
// them. Each is a StatusError, so the HTTP layer answers it as is (a watch sends it as an ERROR event).

import { goQuote } from "../errors/go-format.js";
import { badRequest, StatusError } from "../errors/status-error.js";

/** 504 after the bounded wait for a revision the cache has not reached; Retry-After 1 s, as kube's. */
export class TooLargeResourceVersionError extends StatusError {
  override name = "TooLargeResourceVersionError";
  constructor(
    readonly requested: number,
    readonly current: number,
  ) {
    super(504, "Timeout", `Timeout: Too large resource version: ${requested}, current: ${current}`, {
      causes: [{ reason: "ResourceVersionTooLarge", message: "Too large resource version" }],
      retryAfterSeconds: 1,
    });
  }
}

/** 410 Expired for a watch whose start lies before the history window. */
export function watchTooOld(requested: number, oldest: number): StatusError {
  return new StatusError(410, "Expired", `too old resource version: ${requested} (${oldest})`);
}

/** 410 Expired for an Exact list at a revision before the history window. */
export function listTooOld(): StatusError {
  return new StatusError(410, "Expired", "The resourceVersion for the provided list is too old.");
}

/**
 * 410 Expired for a continue token whose revision left the window. Like kube, the Status carries in
 * `metadata.continue` a token (revision -1) that resumes at the same key on the current state.
 */
export class ContinueExpiredError extends StatusError {
  override name = "ContinueExpiredError";
  constructor(readonly continueToken: string) {
    super(
      410,
      "Expired",
      "The provided continue parameter is too old to display a consistent list result. You can start a new list " +
        "without the continue parameter, or use the continue token in this response to retrieve the remainder of " +
        "the results. Continuing with the provided token results in an inconsistent list - objects that were " +
        "created, modified, or deleted between the time the first chunk was returned and now may show up in the list.",
    );
    // kube's Status.metadata is a ListMeta; the shared Status type models it empty, so set it here.
    Object.assign(this.status.metadata, { continue: continueToken });
  }
}

export function continueWithResourceVersion(): StatusError {
  return badRequest("specifying resource version is not allowed when using continue");
}

/** 400 for a resourceVersion that is not a decimal uint64, with strconv.ParseUint's words. */
export function invalidResourceVersion(value: string, why: "invalid syntax" | "value out of range"): StatusError {
  return badRequest(
    `invalid resource version: resourceVersion: Invalid value: ${goQuote(value)}: strconv.ParseUint: parsing ${goQuote(value)}: ${why}`,
  );
}
