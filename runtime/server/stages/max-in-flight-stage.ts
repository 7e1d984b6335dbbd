// kube-apiserver's max-in-flight filter: a request that is not long-running takes a slot in the read-only or
// the mutating pool; when its pool is full it is refused with 429 and `Retry-After: 1` at once, unless its
// user is in system:masters, who always get an answer. With API Priority and Fairness on (kube's default) the
// priorityAndFairness stage limits instead, and this one hands on.
import { mastersGroup } from "../../access/user-info.js";
import { StatusError } from "../../errors/status-error.js";
import type { Stage } from "../context.js";
import { isMutatingVerb } from "../in-flight-limit.js";
import { isLongRunning } from "../long-running.js";
import { recordTermination } from "./metrics-stage.js";

export const maxInFlight: Stage = {
  name: "maxInFlight",
  async run(ctx, next) {
    if (ctx.server.flowControl !== undefined || ctx.info === undefined || isLongRunning(ctx.info)) return next();
    const mutating = isMutatingVerb(ctx.info.verb);
    const limit = ctx.server.limits.inFlight;
    if (!limit.acquire(mutating)) {
      if (ctx.user?.groups.includes(mastersGroup)) return next();
      ctx.res.setHeader("Retry-After", "1");
      recordTermination(ctx, 429);
      throw new StatusError(429, "TooManyRequests", "Too many requests, please try again later.");
    }
    try {
      await next();
    } finally {
      limit.release(mutating);
    }
  },
};
