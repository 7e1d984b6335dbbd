// PATCH: the Content-Type names the patch type (415 for one the kind does not take) and the query kube's
// PatchOptions; ResourceApi patches or applies (docs/resources.md), and the result goes out in the
// negotiated format, 201 when an apply created the object.
import { parseMediaType } from "../http/accept.js";
import { type PatchType, patchMediaTypes, servesPatchType, unservedPatchType } from "../resources/patch-types.js";
import type { Target } from "../resources/resource-api.js";
import type { RequestContext } from "../server/context.js";
import { admissionRequestOf, writeQueryOptions } from "./admission-request.js";
import { createAuthorization } from "./create-authorization.js";
import { responseFormat, sendObject } from "./object-response.js";
import { managerOrUserAgent, parseWriteQuery } from "./write-options.js";

function patchTypeOf(ctx: RequestContext, target: Target): PatchType | "apply" {
  const { type, subtype } = parseMediaType(ctx.req.headers["content-type"] ?? "");
  const patchType = patchMediaTypes.get(`${type}/${subtype}`);
  if (patchType === undefined || !servesPatchType(target.kind, patchType)) throw unservedPatchType(target.kind);
  return patchType;
}

/** kube logs a patch's bytes as they came: JSON as JSON, anything else (an apply's YAML) as its text. */
function auditPatch(body: Buffer): unknown {
  const text = body.toString("utf8");
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export async function patchResource(ctx: RequestContext, target: Target): Promise<void> {
  const type = patchTypeOf(ctx, target);
  const query = parseWriteQuery(ctx.url.searchParams, "PatchOptions", type === "apply" ? "apply" : "other");
  const format = responseFormat(ctx, { list: false, watch: false, kind: target.kind });
  const body = ctx.body ?? Buffer.alloc(0);
  ctx.audit?.requestPatch(auditPatch(body));
  const options = {
    dryRun: query.dryRun,
    fieldValidation: query.fieldValidation,
    request: admissionRequestOf(ctx, writeQueryOptions(ctx.url.searchParams)),
  };
  const api = ctx.server.resources;
  if (type === "apply") {
    const manager = query.fieldManager as string;
    const authorizeCreate = createAuthorization(ctx);
    const result = await api.apply(target, body, {
      ...options,
      fieldManager: manager,
      force: query.force,
      ...(authorizeCreate === undefined ? {} : { authorizeCreate }),
    });
    sendObject(ctx, format, result.created ? 201 : 200, target.kind, result.object, { warnings: result.warnings });
    return;
  }
  const fieldManager = managerOrUserAgent(query.fieldManager, ctx.req.headers["user-agent"]);
  const result = await api.patch(target, type, body, { ...options, fieldManager });
  sendObject(ctx, format, 200, target.kind, result.object, { warnings: result.warnings });
}
