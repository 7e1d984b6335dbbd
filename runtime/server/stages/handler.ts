// The innermost stage: answers the request. Resource requests whose route exists but whose handlers have not
// arrived yet answer 404 like an unserved path; a method the route does not allow answers 405.

import { routeVerb } from "../../routing/match-route.js";
import type { HttpMethod } from "../../routing/route.js";
import type { Stage } from "../context.js";
import { nonResourceEndpoint } from "../endpoints/non-resource.js";
import { methodNotAllowed, pathNotFound } from "../generic-errors.js";
import { queryBool } from "../request-info.js";

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
      if (method === undefined || routeVerb(ctx.route.route, method, watch) === undefined) throw methodNotAllowed();
      throw pathNotFound();
    }
    const endpoint = nonResourceEndpoint(ctx.url.pathname);
    if (!endpoint) throw pathNotFound();
    if (method !== "GET") throw methodNotAllowed();
    await endpoint(ctx);
  },
};
