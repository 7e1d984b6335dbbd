// Whether the user may: the server's authorizer chain answers for the request's attributes; anything but
// an allow is kube's 403 naming the user, verb and resource, with the authorizers' reason.

import type { Decision } from "../../access/authorizer.js";
import { forbiddenRequest, requestAttributes } from "../../access/request-attributes.js";
import { type AuthorizationResult, accessMetrics } from "../../metrics/access-metrics.js";
import type { Stage } from "../context.js";

/** kube's result label: an allow, else an error, else the deny or no-opinion. */
function authorizationResult(decision: Decision): AuthorizationResult {
  if (decision.decision === "allow") return "allowed";
  if (decision.error !== undefined) return "error";
  return decision.decision === "deny" ? "denied" : "no-opinion";
}

export const authorization: Stage = {
  name: "authorization",
  async run(ctx, next) {
    const { info, user } = ctx;
    if (info === undefined || user === undefined)
      throw new Error("authorization before request info and authentication");
    const attributes = requestAttributes(user, info, ctx.url.searchParams);
    const started = performance.now();
    const decision = await ctx.server.access.authorizer.authorize(attributes);
    accessMetrics(ctx.server.metrics).authorized(authorizationResult(decision), (performance.now() - started) / 1000);
    if (ctx.audit !== undefined) {
      ctx.auditAnnotations ??= {};
      ctx.auditAnnotations["authorization.k8s.io/decision"] = decision.decision === "allow" ? "allow" : "forbid";
      ctx.auditAnnotations["authorization.k8s.io/reason"] = decision.reason;
    }
    if (decision.decision !== "allow") throw forbiddenRequest(attributes, decision.reason);
    await next();
  },
};
