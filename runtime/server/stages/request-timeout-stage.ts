// Bounds how long a request that is not long-running may take: `--request-timeout`, or less when the request's
// `timeout` query parameter (a Go duration) asks for less. Past it the client gets kube's 504 and whatever
// the request still does is discarded; a response already under way is cut, as kube-apiserver aborts it.
import { parseGoDuration } from "../../authz/authorization-config.js";
import { badRequest, timeout } from "../../errors/status-error.js";
import type { Stage } from "../context.js";
import { isLongRunning } from "../long-running.js";
import { recordTermination } from "./metrics-stage.js";

/** The deadline in milliseconds: the `timeout` parameter when it is positive and below the server's bound. */
export function requestDeadlineMs(query: URLSearchParams, maximumMs: number): number {
  const value = query.get("timeout");
  if (value === null || value === "") return maximumMs;
  let nanos: bigint;
  try {
    nanos = parseGoDuration(value);
  } catch (error) {
    throw badRequest(`invalid timeout specified in the request URL - ${(error as Error).message}`);
  }
  const ms = Number(nanos) / 1e6;
  return ms > 0 && ms < maximumMs ? ms : maximumMs;
}

const timedOut = () => timeout("request did not complete within the allotted timeout");

export const requestTimeout: Stage = {
  name: "timeout",
  async run(ctx, next) {
    if (ctx.info === undefined || isLongRunning(ctx.info)) return next();
    const ms = requestDeadlineMs(ctx.url.searchParams, ctx.server.limits.requestTimeoutMs);
    // A deadline below a millisecond has passed before anything is done, as it has for kube's handlers.
    if (ms < 1) throw timedOut();
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        recordTermination(ctx, 504);
        reject(timedOut());
      }, ms);
    });
    try {
      await Promise.race([next(), expired]);
    } finally {
      clearTimeout(timer);
    }
  },
};
