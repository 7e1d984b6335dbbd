// The scale subresource over HTTP: ResourceApi reads and writes the Scale (docs/resources.md); a PUT's body
// is decoded as the kind's autoscaling/v1 Scale. PATCH and apply go through the patch handler.

import type { Target } from "../resources/resource-api.js";
import { scaleRecord } from "../resources/scale-object.js";
import type { RequestContext } from "../server/context.js";
import { admissionRequestOf, writeQueryOptions } from "./admission-request.js";
import { responseFormat, sendObject } from "./object-response.js";
import { refuseExport } from "./read-handlers.js";
import { readRequestObject } from "./request-body.js";
import { checkUrlName } from "./url-name.js";
import { managerOrUserAgent, parseWriteQuery } from "./write-options.js";

export async function getScale(ctx: RequestContext, target: Target): Promise<void> {
  const format = responseFormat(ctx, { list: false, watch: false, kind: target.kind });
  refuseExport(ctx.url.searchParams);
  const scale = await ctx.server.resources.getScale(target);
  sendObject(ctx, format, 200, target.kind, scale);
}

export async function updateScale(ctx: RequestContext, target: Target): Promise<void> {
  const format = responseFormat(ctx, { list: false, watch: false, kind: target.kind });
  const record = scaleRecord(target);
  const query = parseWriteQuery(ctx.url.searchParams, "UpdateOptions");
  const { object: scale, warnings } = readRequestObject(ctx, record.kind, query.fieldValidation);
  checkUrlName(scale, target);
  const written = await ctx.server.resources.updateScale(target, scale, {
    dryRun: query.dryRun,
    owner: { manager: managerOrUserAgent(query.fieldManager, ctx.req.headers["user-agent"]) },
    request: admissionRequestOf(ctx, writeQueryOptions(ctx.url.searchParams)),
  });
  sendObject(ctx, format, 200, target.kind, written, { warnings });
}
