// Whether the user may: the server's authorizer chain answers for the request's attributes; anything but
// an allow is kube's 403 naming the user, verb and resource, with the authorizers' reason.
import { forbiddenRequest, requestAttributes } from "../../access/request-attributes.js";
import type { Stage } from "../context.js";

export const authorization: Stage = {
  name: "authorization",
  async run(ctx, next) {
    const { info, user } = ctx;
    if (info === undefined || user === undefined)
      throw new Error("authorization before request info and authentication");
    const attributes = requestAttributes(user, info, ctx.url.searchParams);
    const decision = await ctx.server.access.authorizer.authorize(attributes);
    if (decision.decision !== "allow") throw forbiddenRequest(attributes, decision.reason);
    await next();
  },
};
