// delete and deletecollection. DeleteOptions come from the query and, when there is one, the body (which
// wins, as kube decodes it last).

import { decodeBody } from "../codecs/decode-body.js";
import { encodeObject, writeEncoded } from "../codecs/encode-response.js";
import { badRequest } from "../errors/status-error.js";
import type { DeleteOptions } from "../resources/delete-object.js";
import { apiVersionOf, groupResource } from "../resources/kinds.js";
import { integerParam, parseListQuery } from "../resources/list-options.js";
import type { Target } from "../resources/resource-api.js";
import type { RequestContext } from "../server/context.js";
import { queryBool } from "../server/request-info.js";
import type { KubeObject } from "../strategies/strategy.js";
import { admissionRequestOf } from "./admission-request.js";
import { headersFor, listKindOf, responseFormat, sendObject } from "./respond.js";
import { parseDryRun } from "./write-options.js";

function bodyOptions(ctx: RequestContext): Record<string, unknown> {
  const body = ctx.body;
  if (body === undefined || body.length === 0) return {};
  const { value } = decodeBody(ctx.req.headers["content-type"], body);
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw badRequest("the body of the request was in an unknown format: expected DeleteOptions");
  }
  return value as Record<string, unknown>;
}

export function parseDeleteOptions(ctx: RequestContext): DeleteOptions {
  const query = ctx.url.searchParams;
  const body = bodyOptions(ctx);
  const fromBody = Array.isArray(body.dryRun) ? body.dryRun.map(String) : [];
  const options: DeleteOptions = {
    dryRun: parseDryRun(query, "DeleteOptions", fromBody),
    request: admissionRequestOf(ctx),
  };
  const grace =
    typeof body.gracePeriodSeconds === "number" ? body.gracePeriodSeconds : integerParam(query, "gracePeriodSeconds");
  if (grace !== undefined) options.gracePeriodSeconds = grace;
  const policy = typeof body.propagationPolicy === "string" ? body.propagationPolicy : query.get("propagationPolicy");
  if (policy !== null && policy !== "") options.propagationPolicy = policy;
  if (typeof body.orphanDependents === "boolean") options.orphanDependents = body.orphanDependents;
  else if (query.has("orphanDependents")) options.orphanDependents = queryBool(query, "orphanDependents");
  const pre = body.preconditions;
  if (typeof pre === "object" && pre !== null) {
    const { uid, resourceVersion } = pre as Record<string, unknown>;
    options.preconditions = {
      ...(typeof uid === "string" ? { uid } : {}),
      ...(typeof resourceVersion === "string" ? { resourceVersion } : {}),
    };
  }
  return options;
}

export async function deleteResource(ctx: RequestContext, target: Target): Promise<void> {
  const format = responseFormat(ctx, { list: false, watch: false, kind: target.kind });
  const options = parseDeleteOptions(ctx);
  const { object, deleted } = await ctx.server.resources.delete(target, options);
  if (!deleted || target.kind.strategy?.returnDeletedObject === true) {
    const accepted = !deleted && options.orphanDependents === false;
    sendObject(ctx, format, accepted ? 202 : 200, target.kind, object);
    return;
  }
  const meta = object.metadata as Record<string, unknown>;
  const { group, name: resource } = groupResource(target.kind);
  const status: KubeObject = {
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Success",
    details: { name: meta.name, ...(group === "" ? {} : { group }), kind: resource, uid: meta.uid },
  };
  sendObject(ctx, format, 200, target.kind, status);
}

export async function deleteCollection(ctx: RequestContext, target: Target): Promise<void> {
  const format = responseFormat(ctx, { list: true, watch: false, kind: target.kind });
  const query = parseListQuery(ctx.url.searchParams);
  const options = parseDeleteOptions(ctx);
  const items = await ctx.server.resources.deleteCollection(target, query, options);
  const list = { kind: listKindOf(target.kind), apiVersion: apiVersionOf(target.kind), metadata: {}, items };
  writeEncoded(ctx.req, ctx.res, 200, encodeObject(format, list), headersFor(ctx.warnings));
}
