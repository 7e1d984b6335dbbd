// create (POST) and update (PUT) of a resource or its status.
import type { WriteOptions } from "../resources/create-object.js";
import type { Target } from "../resources/resource-api.js";
import type { RequestContext } from "../server/context.js";
import { admissionRequestOf, writeQueryOptions } from "./admission-request.js";
import { createAuthorization } from "./create-authorization.js";
import { responseFormat, sendObject } from "./object-response.js";
import { readRequestObject } from "./request-body.js";
import { checkUrlName } from "./url-name.js";
import { managerOrUserAgent, parseWriteQuery, type WriteQuery } from "./write-options.js";

function writeOptions(ctx: RequestContext, query: WriteQuery): WriteOptions {
  return {
    dryRun: query.dryRun,
    owner: { manager: managerOrUserAgent(query.fieldManager, ctx.req.headers["user-agent"]) },
    request: admissionRequestOf(ctx, writeQueryOptions(ctx.url.searchParams)),
  };
}

export async function createResource(ctx: RequestContext, target: Target): Promise<void> {
  const format = responseFormat(ctx, { list: false, watch: false, kind: target.kind });
  const query = parseWriteQuery(ctx.url.searchParams, "CreateOptions");
  const { object, warnings } = readRequestObject(ctx, target.kind, query.fieldValidation);
  const name = (object.metadata as { name?: unknown } | undefined)?.name;
  if (typeof name === "string") ctx.objectName = name;
  const created = await ctx.server.resources.create(target, object, writeOptions(ctx, query));
  sendObject(ctx, format, 201, target.kind, created, {
    warnings: [
      ...warnings,
      ...(target.kind.strategy?.warnings?.(created) ?? []),
      ...(target.kind.strategy?.warningsOnCreate?.(created) ?? []),
    ],
  });
}

export async function updateResource(ctx: RequestContext, target: Target): Promise<void> {
  const format = responseFormat(ctx, { list: false, watch: false, kind: target.kind });
  const query = parseWriteQuery(ctx.url.searchParams, "UpdateOptions");
  const { object, warnings } = readRequestObject(ctx, target.kind, query.fieldValidation);
  checkUrlName(object, target);
  const authorizeCreate = createAuthorization(ctx);
  const result = await ctx.server.resources.update(target, object, {
    ...writeOptions(ctx, query),
    ...(authorizeCreate === undefined ? {} : { authorizeCreate }),
  });
  sendObject(ctx, format, result.created ? 201 : 200, target.kind, result.object, {
    warnings: [
      ...warnings,
      ...(target.kind.strategy?.warnings?.(result.object) ?? []),
      ...((result.created ? target.kind.strategy?.warningsOnCreate?.(result.object) : undefined) ?? []),
    ],
  });
}
