// Audit: when the server has an audit sink, every request gets an Audit-Id header and, once its response
// is complete, one Metadata-level event carrying the annotations added while it was served.
import { auditEventOf, newAuditID } from "../audit-event.js";
import type { Stage } from "../context.js";

export const audit: Stage = {
  name: "audit",
  async run(ctx, next) {
    const sink = ctx.server.audit;
    if (sink === undefined) return next();
    const auditID = newAuditID();
    const received = new Date();
    ctx.res.setHeader("Audit-Id", auditID);
    ctx.res.once("finish", () => sink(auditEventOf(ctx, auditID, received, ctx.res.statusCode)));
    await next();
  },
};
