// kube-apiserver's API Priority and Fairness filter, where the max-in-flight filter would be: after
// impersonation, before authorization. Each request (watches included, other long-running ones not) is
// classified by the FlowSchemas, tagged with the matched FlowSchema's and priority level's UIDs
// (X-Kubernetes-PF-FlowSchema-UID, X-Kubernetes-PF-PriorityLevel-UID), and waits for its seats at its level;
// a watch holds them only until its initial events are sent. A rejected request gets 429 with kube's
// plain-text body and the level's Retry-After. Without flow control (`--enable-priority-and-fairness=false`)
// the stage hands on, and the max-in-flight stage limits instead.
import type { Classification } from "../../flowcontrol/flow-control.js";
import { estimateSeats } from "../../flowcontrol/work-estimate.js";
import type { RequestContext, Stage } from "../context.js";
import { isLongRunning } from "../long-running.js";

/** kube's bound on any request's wait in a queue. */
const longestWaitMs = 60_000;

async function seatsFor(ctx: RequestContext, classification: Classification): Promise<number> {
  const info = ctx.info;
  if (info === undefined || (info.verb !== "list" && info.verb !== "watch") || ctx.route === undefined) return 1;
  const kind = ctx.server.resources.kinds.servedKind(info.group, info.version, info.resource);
  const stats =
    kind === undefined
      ? undefined
      : await ctx.server.resources.context
          .storageOf(kind)
          .cache()
          .then(
            (cache) => cache.stats(),
            () => undefined,
          );
  return estimateSeats(info, ctx.url.searchParams, stats, classification.level.maxSeats);
}

function setClassificationHeaders(ctx: RequestContext, classification: Classification): void {
  if (ctx.res.headersSent) return;
  ctx.res.setHeader("X-Kubernetes-PF-FlowSchema-UID", classification.flowSchema.uid);
  ctx.res.setHeader("X-Kubernetes-PF-PriorityLevel-UID", classification.level.uid);
}

/** Calls `onGone` once the client left before its response was sent; returns what stops listening. */
function watchClientGone(ctx: RequestContext, onGone: () => void): () => void {
  const res = ctx.res;
  if (res.destroyed && !res.writableFinished) {
    onGone();
    return () => {};
  }
  const onClose = () => {
    if (!res.writableFinished) onGone();
  };
  res.once("close", onClose);
  return () => res.off("close", onClose);
}

export const priorityAndFairness: Stage = {
  name: "priorityAndFairness",
  async run(ctx, next) {
    const flowControl = ctx.server.flowControl;
    const { info, user } = ctx;
    if (flowControl === undefined || info === undefined || user === undefined) return next();
    const watch = info.verb === "watch";
    if (!watch && isLongRunning(info)) return next();
    const classification = flowControl.classify(user, info);
    const seats = await seatsFor(ctx, classification);
    // A request may wait a quarter of its time (kube's), and never past a minute.
    const limitMs = Math.min(ctx.server.limits.requestTimeoutMs / 4, longestWaitMs);
    const outcome = await flowControl.admit(classification, seats, watch, limitMs, (onCancel) =>
      watchClientGone(ctx, onCancel),
    );
    setClassificationHeaders(ctx, classification);
    if ("rejected" in outcome) {
      const level = classification.level.name;
      flowControl.dropped.record(level);
      if (ctx.res.headersSent || ctx.res.destroyed) return;
      const body = "Too many requests, please try again later.\n";
      ctx.res.writeHead(429, {
        "Retry-After": String(flowControl.dropped.retryAfter(level)),
        "Content-Type": "text/plain; charset=utf-8",
        "X-Content-Type-Options": "nosniff",
        "Content-Length": Buffer.byteLength(body),
      });
      ctx.res.end(body);
      return;
    }
    const { grant } = outcome;
    if (watch) ctx.watchInitialized = () => grant.release();
    try {
      await next();
    } finally {
      grant.release();
    }
  },
};
