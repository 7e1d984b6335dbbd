// The kind and object a resource request names, from its matched route.
import { notFound } from "../errors/status-error.js";
import type { Target } from "../resources/resource-api.js";
import type { RequestContext } from "../server/context.js";

export function resourceTarget(ctx: RequestContext): Target {
  const match = ctx.route;
  if (match === undefined) throw new Error("resource handler without a route");
  const { route, params } = match;
  const kind = ctx.server.resources.kinds.servedKind(route.group, route.version, route.resource);
  if (kind === undefined) throw notFound({ group: route.group, name: route.resource }, params.name ?? "");
  return {
    kind,
    ...(params.namespace === undefined ? {} : { namespace: params.namespace }),
    ...(params.name === undefined ? {} : { name: params.name }),
    ...(route.subresource === undefined ? {} : { subresource: route.subresource }),
  };
}
