// A write that creates through another verb (an apply, or a PUT to a kind that creates on update) must also be
// allowed to create: kube asks its authorizer once, when the write turns out to create, after the kind's
// validation and before validating admission, and answers 403 as for a refused create request.
import { forbiddenRequest, requestAttributes } from "../access/request-attributes.js";
import { internal } from "../errors/status-error.js";
import type { RequestContext } from "../server/context.js";

export function createAuthorization(ctx: RequestContext): (() => Promise<void>) | undefined {
  const { info, user } = ctx;
  if (info === undefined || user === undefined) return undefined;
  const attributes = requestAttributes(user, { ...info, verb: "create" }, new URLSearchParams());
  let decided: Promise<void> | undefined;
  const decide = async (): Promise<void> => {
    const decision = await ctx.server.access.authorizer.authorize(attributes);
    if (decision.decision === "allow") return;
    if (decision.error !== undefined) throw internal(decision.error);
    throw forbiddenRequest(attributes, decision.reason);
  };
  return () => {
    decided ??= decide();
    return decided;
  };
}
