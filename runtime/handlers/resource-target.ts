// The kind and object a resource request names, from its matched route. A name that cannot be a path
// segment (`.`, `..`, or one holding `/` or `%` once decoded) names no stored object: kube's storage refuses
// it with a 400 before looking.
import { goQuote } from "../errors/go-format.js";
import { badRequest, notFound } from "../errors/status-error.js";
import type { Target } from "../resources/resource-api.js";
import type { RequestContext } from "../server/context.js";
import { pathSegmentErrors } from "../validation/name-formats.js";

export function resourceTarget(ctx: RequestContext): Target {
  const match = ctx.route;
  if (match === undefined) throw new Error("resource handler without a route");
  const { route, params } = match;
  const kind = ctx.server.resources.kinds.servedKind(route.group, route.version, route.resource);
  if (kind === undefined) throw notFound({ group: route.group, name: route.resource }, params.name ?? "");
  if (params.name !== undefined) {
    const invalid = pathSegmentErrors(params.name);
    if (invalid.length > 0) throw badRequest(`Name parameter invalid: ${goQuote(params.name)}: ${invalid.join(";")}`);
  }
  return {
    kind,
    ...(params.namespace === undefined ? {} : { namespace: params.namespace }),
    ...(params.name === undefined ? {} : { name: params.name }),
    ...(route.subresource === undefined ? {} : { subresource: route.subresource }),
  };
}
