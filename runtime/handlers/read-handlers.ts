// get and list: served from the watch cache with kube's resourceVersion semantics.
import { badRequest } from "../errors/status-error.js";
import { parseListQuery } from "../resources/list-options.js";
import type { Target } from "../resources/resource-api.js";
import { queryBool } from "../routing/request-info.js";
import type { RequestContext } from "../server/context.js";
import { sendList } from "./list-response.js";
import { responseFormat, sendObject } from "./object-response.js";

/** kube's get refuses `export` (removed in v1.14) unless it reads as false. */
export function refuseExport(query: URLSearchParams): void {
  if (query.has("export") && queryBool(query, "export")) {
    throw badRequest("the export parameter, deprecated since v1.14, is no longer supported");
  }
}

export async function getResource(ctx: RequestContext, target: Target): Promise<void> {
  const format = responseFormat(ctx, { list: false, watch: false, kind: target.kind });
  refuseExport(ctx.url.searchParams);
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
  await sendList(ctx, format, target.kind, result);
}
