// The kind and object a resource request names, from its matched route.
import { kinds } from "../../generated/registry.js";
import { notFound } from "../errors/status-error.js";
import { byGroupVersionResource, type ServedKind } from "../registry/lookup.js";
import type { Target } from "../resources/resource-api.js";
import type { RequestContext } from "../server/context.js";

const byResource = new Map<string, ServedKind | undefined>();

export function servedKind(group: string, version: string, resource: string): ServedKind | undefined {
  const key = `${group}/${version}/${resource}`;
  if (!byResource.has(key)) byResource.set(key, byGroupVersionResource(kinds, group, version, resource));
  return byResource.get(key);
}

export function resourceTarget(ctx: RequestContext): Target {
  const match = ctx.route;
  if (match === undefined) throw new Error("resource handler without a route");
  const { route, params } = match;
  const kind = servedKind(route.group, route.version, route.resource);
  if (kind === undefined) throw notFound({ group: route.group, name: route.resource }, params.name ?? "");
  return {
    kind,
    ...(params.namespace === undefined ? {} : { namespace: params.namespace }),
    ...(params.name === undefined ? {} : { name: params.name }),
    ...(route.subresource === undefined ? {} : { subresource: route.subresource }),
  };
}
