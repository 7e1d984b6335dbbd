// Counts the requests a graceful shutdown waits for; once the server drains, a new one is told to retry
// (kube-apiserver's 503 `apiserver is shutting down` with `Retry-After: 1`).
import { serviceUnavailable } from "../../errors/status-error.js";
import type { Stage } from "../context.js";
import { isLongRunning } from "../long-running.js";

export const waitGroup: Stage = {
  name: "waitGroup",
  async run(ctx, next) {
    if (ctx.info === undefined || isLongRunning(ctx.info)) return next();
    const requests = ctx.server.limits.requests;
    if (!requests.add()) {
      ctx.res.setHeader("Retry-After", "1");
      ctx.res.setHeader("Connection", "close");
      throw serviceUnavailable("apiserver is shutting down");
    }
    try {
      await next();
    } finally {
      requests.done();
    }
  },
};
