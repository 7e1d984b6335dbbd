// The innermost stage: answers the request. Resource requests go to their verb's handler; a method the
// route does not allow answers 405.

import { methodNotAllowed, pathNotFound } from "../../errors/generic-errors.js";
import { serveResource } from "../../handlers/serve-resource.js";
import { routeVerb } from "../../routing/match-route.js";
import { queryBool } from "../../routing/request-info.js";
import type { HttpMethod } from "../../routing/route.js";
import type { Stage } from "../context.js";
import { nonResourceEndpoint } from "../endpoints/non-resource.js";

function httpMethod(method: string | undefined): HttpMethod | undefined {
  if (method === "HEAD") return "GET";
  return method === "GET" || method === "POST" || method === "PUT" || method === "PATCH" || method === "DELETE"
    ? method
    : undefined;
}

export const handler: Stage = {
  name: "handler",
  async run(ctx) {
    const method = httpMethod(ctx.req.method);
    if (ctx.info?.isResourceRequest) {
      if (!ctx.route) throw pathNotFound();
      const watch = ctx.info.verb === "watch" || queryBool(ctx.url.searchParams, "watch");
      // The legacy `/watch/` path form watches even a named object's path.
      const legacyWatch = ctx.info.verb === "watch" && method === "GET" && ctx.route.route.methods.GET === "get";
      const verb = method === undefined ? undefined : legacyWatch ? "watch" : routeVerb(ctx.route.route, method, watch);
      if (verb === undefined) throw methodNotAllowed();
      await serveResource(ctx, verb);
      return;
    }
    const endpoint = nonResourceEndpoint(
      ctx.path,
      ctx.server.resources.kinds,
      ctx.server.featureGates.enabled("StorageVersionHash"),
    );
    if (!endpoint) throw pathNotFound();
    if (method !== "GET") throw methodNotAllowed();
    await endpoint(ctx);
  },
};
