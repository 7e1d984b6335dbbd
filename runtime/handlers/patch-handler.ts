// PATCH: the patch is applied to the object as stored now, and the result goes through the update path
// guarded by the revision it was applied to; a concurrent write means applying it again to the newer
// object. A patched resourceVersion other than the stored one is the client's precondition: 409, never
// retried. Apply (application/apply-patch+yaml) merges an intent through the field manager and creates
// the object when it is absent.

import { fieldTable } from "../../generated/fields.js";
import { validationKey } from "../../generated/validation.js";
import { checkConfiguration } from "../apply/field-manager.js";
import { type GroupVersionKind, jsonKind } from "../codecs/decode-errors.js";
import { decodeObject } from "../codecs/decode-object.js";
import { type FieldValidation, strictDecodingOutcome, unknownFieldProblem } from "../codecs/field-validation.js";
import { parseJson } from "../codecs/json-body.js";
import { isJsonObject } from "../codecs/json-object.js";
import { parseYaml } from "../codecs/yaml-body.js";
import { badRequest, conflict, isConflict, StatusError, unsupportedMediaType } from "../errors/status-error.js";
import { parseMediaType } from "../http/accept.js";
import { applyJsonPatch, decodeJsonPatch } from "../patch/json-patch.js";
import { applyMergePatch } from "../patch/merge-patch.js";
import {
  checkPatchedName,
  decodePatched,
  type PatchType as PatchBodyType,
  type Patched,
  patchRefused,
  pruneUnknownPatchedFields,
} from "../patch/patched-object.js";
import { applyStrategicMergePatch, servesStrategicMergePatch } from "../patch/strategic-merge-patch.js";
import type { CustomKind } from "../registry/custom-kind.js";
import type { WriteOptions } from "../resources/create-object.js";
import { groupResource } from "../resources/kinds.js";
import { applyIntent, type FieldOwner, managedSchemaOf } from "../resources/managed-fields.js";
import { objectMeta } from "../resources/object-access.js";
import type { Target } from "../resources/resource-api.js";
import type { RequestContext } from "../server/context.js";
import type { KubeObject } from "../strategies/strategy.js";
import { admissionRequestOf } from "./admission-request.js";
import { responseFormat, sendObject } from "./respond.js";
import { applyScale, scaleOf, scaleRecord, writeScale } from "./scale-handlers.js";
import { managerOrUserAgent, parseWriteQuery, type WriteQuery } from "./write-options.js";

type PatchType = PatchBodyType | "apply";

const patchTypes: ReadonlyMap<string, PatchType> = new Map([
  ["application/json-patch+json", "json"],
  ["application/merge-patch+json", "merge"],
  ["application/strategic-merge-patch+json", "strategic"],
  ["application/apply-patch+yaml", "apply"],
]);

function patchTypeOf(ctx: RequestContext, target: Target): PatchType {
  const { type, subtype } = parseMediaType(ctx.req.headers["content-type"] ?? "");
  const patchType = patchTypes.get(`${type}/${subtype}`);
  const { kind } = target;
  const strategic = servesStrategicMergePatch(fieldTable, validationKey(kind.group, kind.version, kind.kind));
  const accepted = [...patchTypes].filter(([, t]) => strategic || t !== "strategic").map(([media]) => media);
  if (patchType === undefined || (patchType === "strategic" && !strategic)) throw unsupportedMediaType(accepted);
  return patchType;
}

/** A patch decoded once, applied to each object it is tried on. */
interface DecodedPatch {
  apply(before: KubeObject): Patched;
  /** Strict-decoding problems of the patch itself, reported before the patched object's. */
  problems: readonly string[];
}

/** kube decodes a merge or strategic patch into a map: null and non-objects are refused as it words them. */
function decodeMapPatch(body: Buffer, level: FieldValidation): Record<string, unknown> {
  const parsed = parseJson(body);
  if ("error" in parsed) throw badRequest(`error decoding patch: ${parsed.error}`);
  const patch = parsed.value;
  if (patch === null) throw badRequest("Invalid JSON Patch");
  if (typeof patch !== "object" || Array.isArray(patch)) {
    if (level === "Ignore") throw badRequest("Invalid JSON Patch");
    const kind = Array.isArray(patch) ? "array" : typeof patch === "string" ? "string" : typeof patch;
    throw badRequest(
      `error decoding patch: json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`,
    );
  }
  return patch as Record<string, unknown>;
}

function decodePatch(type: PatchBodyType, body: Buffer, level: FieldValidation, kind: GroupVersionKind): DecodedPatch {
  switch (type) {
    case "json": {
      const patch = decodeJsonPatch(body, level);
      return { apply: (before) => ({ type, result: applyJsonPatch(before, patch), patch }), problems: patch.problems };
    }
    case "merge": {
      const patch = decodeMapPatch(body, level);
      return { apply: (before) => ({ type, result: applyMergePatch(before, patch), patch }), problems: [] };
    }
    case "strategic": {
      // kube answers a body that does not parse with the decoder's words alone; the rest is the patch's.
      const parsed = parseJson(body);
      if ("error" in parsed) throw badRequest(parsed.error);
      const patch = parsed.value;
      const { table, root } = managedSchemaOf(kind);
      return {
        apply: (before) => ({ type, result: applyStrategicMergePatch(before, patch, table, root), patch }),
        problems: [],
      };
    }
  }
}

/**
 * Unknown fields of the patched object, after the patch's own problems: warnings under Warn; under Strict
 * kube's 422 naming the patched object.
 */
function patchWarnings(
  level: FieldValidation,
  problems: readonly string[],
  patched: Patched,
  result: KubeObject,
  kind: GroupVersionKind & { custom?: CustomKind },
) {
  const unknown = pruneUnknownPatchedFields(patched, result, kind);
  const all = [...problems, ...unknown.map(unknownFieldProblem)];
  if (level !== "Strict" || all.length === 0) return strictDecodingOutcome(level, all);
  throw patchRefused(patched, `strict decoding error: ${all.join(", ")}`);
}

/**
 * A patch leaving the resourceVersion as stored (or removing it) is unconditional; one that changes it
 * asks for that revision.
 */
function pinnedTo(result: KubeObject, before: KubeObject): boolean {
  const meta = objectMeta(result);
  const requested = meta.resourceVersion;
  if (typeof requested === "string" && requested !== "") return requested !== objectMeta(before).resourceVersion;
  meta.resourceVersion = objectMeta(before).resourceVersion;
  return false;
}

export async function patchResource(ctx: RequestContext, target: Target): Promise<void> {
  const type = patchTypeOf(ctx, target);
  const query = parseWriteQuery(ctx.url.searchParams, "PatchOptions", type === "apply" ? "apply" : "other");
  if (type === "apply") return applyResource(ctx, target, query);
  const format = responseFormat(ctx, { list: false, watch: false, kind: target.kind });
  const body = ctx.body ?? Buffer.alloc(0);
  const api = ctx.server.resources;
  const record = target.subresource === "scale" ? scaleRecord(target) : undefined;
  const parent: Target = { ...target, subresource: record === undefined ? target.subresource : undefined };
  const owner: FieldOwner = {
    manager: managerOrUserAgent(query.fieldManager, ctx.req.headers["user-agent"]),
    ...(record === undefined ? {} : { subresource: "scale" }),
  };
  const options: WriteOptions = { dryRun: query.dryRun, owner, request: admissionRequestOf(ctx) };
  const kind = record?.kind ?? target.kind;
  let patch: DecodedPatch | undefined;
  for (;;) {
    const current = (await api.get({ ...parent, subresource: undefined })).object;
    // Decoded after the read: a missing object is a 404 whatever the patch holds.
    patch ??= decodePatch(type, body, query.fieldValidation, kind);
    const before = record === undefined ? current : scaleOf(current, record);
    const patched = patch.apply(before);
    const result = decodePatched(patched, before, kind) as KubeObject;
    const warnings = patchWarnings(query.fieldValidation, patch.problems, patched, result, kind);
    checkPatchedName(result, target.name as string);
    const pinned = pinnedTo(result, before);
    try {
      const object =
        record !== undefined
          ? await writeScale(ctx, target, record, result, options)
          : (await api.update(parent, result, options)).object;
      sendObject(ctx, format, 200, target.kind, object, { warnings });
      return;
    } catch (error) {
      if (!isConflict(error) || pinned) throw error;
    }
  }
}

/** The apply intent as sent, YAML or JSON; its version, kind and managedFields are the field manager's to check. */
function readIntent(
  ctx: RequestContext,
  kind: GroupVersionKind & { custom?: CustomKind },
  query: WriteQuery,
): { config: KubeObject; warnings: string[] } {
  const body = ctx.body ?? Buffer.alloc(0);
  try {
    const decoded = decodeObject("application/yaml", body, query.fieldValidation, kind, kind.custom);
    return { config: decoded.object as KubeObject, warnings: decoded.warnings };
  } catch (error) {
    throw intentRefusal(body, kind, query.fieldValidation, error);
  }
}

/**
 * kube's answer to an intent the decoder refused (`error`): kube reads the body into a plain map, so a
 * body that is no YAML mapping is refused in those words, and only applying it reads it into the kind's
 * types, so a value of the wrong type is refused as the field manager words it.
 */
function intentRefusal(
  body: Buffer,
  kind: GroupVersionKind & { custom?: CustomKind },
  level: FieldValidation,
  error: unknown,
): unknown {
  const parsed = parseYaml(body);
  if ("error" in parsed) return badRequest(`error decoding YAML: error converting YAML to JSON: ${parsed.error}`);
  const { value } = parsed;
  if (value !== null && !isJsonObject(value)) {
    return badRequest(
      `error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${jsonKind(value)} into Go value of type map[string]interface {}`,
    );
  }
  if (value !== null) checkConfiguration(managedSchemaOf(kind), value as KubeObject);
  if (level === "Strict" && parsed.yamlDuplicates.length > 0) {
    return badRequest(
      `error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n  ${parsed.yamlDuplicates.join("\n  ")}`,
    );
  }
  return error;
}

/** The object `target` holds now, or undefined when an apply is to create it. */
async function liveObject(ctx: RequestContext, target: Target): Promise<KubeObject | undefined> {
  try {
    return (await ctx.server.resources.get({ ...target, subresource: undefined })).object;
  } catch (error) {
    if (error instanceof StatusError && error.code === 404 && target.subresource === undefined) return undefined;
    throw error;
  }
}

/** One attempt at an apply: the written object, or undefined when a concurrent write means trying again. */
async function applyOnce(
  ctx: RequestContext,
  target: Target,
  config: KubeObject,
  owner: FieldOwner & { force: boolean },
  options: WriteOptions,
): Promise<{ object: KubeObject; created: boolean } | undefined> {
  const api = ctx.server.resources;
  const live = await liveObject(ctx, target);
  const intent = applyIntent(target, live, config, owner, api.context.now());
  checkPatchedName(intent, target.name as string);
  const named = (intent.metadata as { name?: unknown } | undefined)?.name;
  if (named !== target.name) {
    throw badRequest(`the name of the object (${String(named)}) does not match the name on the URL (${target.name})`);
  }
  if (live === undefined) {
    try {
      return { object: await api.create(target, intent, options), created: true };
    } catch (error) {
      if (error instanceof StatusError && error.reason === "AlreadyExists") return undefined;
      throw error;
    }
  }
  const pinned = pinnedTo(intent, live);
  try {
    return await api.update(target, intent, options);
  } catch (error) {
    if (!isConflict(error) || pinned) throw error;
    return undefined;
  }
}

async function applyResource(ctx: RequestContext, target: Target, query: WriteQuery): Promise<void> {
  const format = responseFormat(ctx, { list: false, watch: false, kind: target.kind });
  const owner = { manager: query.fieldManager as string, force: query.force };
  if (target.subresource === "scale") {
    const record = scaleRecord(target);
    const { config, warnings } = readIntent(ctx, record.kind, query);
    const scale = await applyScale(ctx, target, config, owner, query.dryRun);
    sendObject(ctx, format, 200, target.kind, scale, { warnings });
    return;
  }
  const { config, warnings } = readIntent(ctx, target.kind, query);
  const options: WriteOptions = { dryRun: query.dryRun, applied: true, request: admissionRequestOf(ctx) };
  // A write that raced another is tried again, as kube's patcher does, a bounded number of times.
  for (let attempt = 0; attempt < maxApplyAttempts; attempt++) {
    const result = await applyOnce(ctx, target, config, owner, options);
    if (result !== undefined) {
      sendObject(ctx, format, result.created ? 201 : 200, target.kind, result.object, { warnings });
      return;
    }
  }
  throw conflict(groupResource(target.kind), target.name as string, "the object kept changing while it was applied");
}

const maxApplyAttempts = 5;
