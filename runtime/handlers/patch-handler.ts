// PATCH: the patch is applied to the object as stored now, and the result goes through the update path
// guarded by the revision it was applied to; a concurrent write means applying it again to the newer
// object. Only JSON merge patch is served so far (the other patch types arrive with issue 4).

import { fieldValidationWarnings } from "../codecs/field-validation.js";
import { pruneUnknownFields } from "../codecs/unknown-fields.js";
import { badRequest, StatusError, unsupportedMediaType } from "../errors/status-error.js";
import { parseMediaType } from "../http/accept.js";
import { applyMergePatch } from "../patch/merge-patch.js";
import { objectMeta } from "../resources/object-access.js";
import type { Target } from "../resources/resource-api.js";
import type { RequestContext } from "../server/context.js";
import type { KubeObject } from "../strategies/strategy.js";
import { responseFormat, sendObject } from "./respond.js";
import { scaleOf, scaleRecord, writeScale } from "./scale-handlers.js";
import { parseWriteQuery } from "./write-options.js";

const patchTypes = [
  "application/json-patch+json",
  "application/merge-patch+json",
  "application/strategic-merge-patch+json",
  "application/apply-patch+yaml",
];

function readPatch(ctx: RequestContext): Record<string, unknown> {
  const header = ctx.req.headers["content-type"] ?? "";
  const { type, subtype } = parseMediaType(header);
  if (`${type}/${subtype}` !== "application/merge-patch+json") throw unsupportedMediaType(patchTypes);
  let patch: unknown;
  try {
    patch = JSON.parse((ctx.body ?? Buffer.alloc(0)).toString("utf8"));
  } catch (error) {
    throw badRequest(`error decoding patch: ${(error as Error).message}`);
  }
  if (typeof patch !== "object" || patch === null || Array.isArray(patch)) {
    throw badRequest("error decoding patch: a merge patch must be a JSON object");
  }
  return patch as Record<string, unknown>;
}

/** The patch names a resourceVersion: a precondition, never retried. */
function pinnedVersion(patch: Record<string, unknown>): boolean {
  const meta = patch.metadata;
  return (
    typeof meta === "object" && meta !== null && typeof (meta as Record<string, unknown>).resourceVersion === "string"
  );
}

export async function patchResource(ctx: RequestContext, target: Target): Promise<void> {
  const format = responseFormat(ctx, { list: false, watch: false, kind: target.kind });
  const { dryRun, fieldValidation: level } = parseWriteQuery(ctx.url.searchParams, "PatchOptions");
  const patch = readPatch(ctx);
  const api = ctx.server.resources;
  const parent: Target = { ...target, subresource: target.subresource === "scale" ? undefined : target.subresource };
  for (;;) {
    const current = (await api.get({ ...parent, subresource: undefined })).object;
    const record = target.subresource === "scale" ? scaleRecord(target) : undefined;
    const before = record === undefined ? structuredClone(current) : scaleOf(current, record);
    const patched = applyMergePatch(before, patch) as KubeObject;
    const kind = record?.kind ?? target.kind;
    const warnings = fieldValidationWarnings(
      level,
      pruneUnknownFields(patched, kind.group, kind.version, kind.kind),
      [],
    );
    if (!pinnedVersion(patch)) objectMeta(patched).resourceVersion = objectMeta(before).resourceVersion;
    try {
      if (record !== undefined) {
        const object = await writeScale(ctx, target, record, patched, dryRun);
        sendObject(ctx, format, 200, target.kind, object, { warnings });
      } else {
        const result = await api.update(parent, patched, { dryRun });
        sendObject(ctx, format, 200, target.kind, result.object, { warnings });
      }
      return;
    } catch (error) {
      if (!(error instanceof StatusError) || error.code !== 409 || error.reason !== "Conflict" || pinnedVersion(patch))
        throw error;
    }
  }
}
