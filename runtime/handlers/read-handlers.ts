// get and list: served from the watch cache with kube's resourceVersion semantics.
import { parseListQuery } from "../resources/list-options.js";
import type { Target } from "../resources/resource-api.js";
import type { RequestContext } from "../server/context.js";
import { responseFormat, sendList, sendObject } from "./respond.js";

export async function getResource(ctx: RequestContext, target: Target): Promise<void> {
  const format = responseFormat(ctx, { list: false, watch: false, kind: target.kind });
  const resourceVersion = ctx.url.searchParams.get("resourceVersion") ?? undefined;
  const item = await ctx.server.resources.get(
    target,
    resourceVersion === undefined || resourceVersion === "" ? {} : { resourceVersion },
  );
  sendObject(ctx, format, 200, target.kind, item.object, { item });
}

export async function listResource(ctx: RequestContext, target: Target): Promise<void> {
  const format = responseFormat(ctx, { list: true, watch: false, kind: target.kind });
  const result = await ctx.server.resources.list(target, parseListQuery(ctx.url.searchParams));
  sendList(ctx, format, target.kind, result);
}
