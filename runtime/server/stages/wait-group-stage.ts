// Counts the requests a graceful shutdown waits for; once the server drains, a new one is told to retry
// (kube-apiserver's 503 `apiserver is shutting down` with `Retry-After: 1`). With --shutdown-send-retry-after,
// requests arriving while the server drains get kube's 429 first (its WithRetryAfter filter), except health
// checks, /metrics and the server's own requests.
import { serviceUnavailable } from "../../errors/status-error.js";
import type { Stage } from "../context.js";
import { isLongRunning } from "../long-running.js";

const exemptFromRetryAfter = ["/readyz", "/livez", "/healthz", "/metrics"];

export const waitGroup: Stage = {
  name: "waitGroup",
  async run(ctx, next) {
    if (
      ctx.server.limits.notAcceptingNewRequests() &&
      !exemptFromRetryAfter.some((prefix) => ctx.path.startsWith(prefix)) &&
      !(ctx.req.headers["user-agent"] ?? "").startsWith("kube-apiserver/")
    ) {
      ctx.res.writeHead(429, {
        Connection: "close",
        "Retry-After": "5",
        "Content-Type": "text/plain; charset=utf-8",
        "X-Content-Type-Options": "nosniff",
      });
      ctx.res.end("The apiserver is shutting down, please try again later.\n");
      return;
    }
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
