// Server-side apply of a configuration to an object or its status (the scale subresource: apply-scale.ts):
// the field manager merges it into the live object, or makes the object to create when there is none
// (201), answering 409 Conflict for fields other managers own unless forced. A write that raced another
// is tried again, as kube's patcher does, a bounded number of times.
import { badRequest, conflict, isConflict, StatusError } from "../errors/status-error.js";
import type { KubeObject } from "../object/kube-object.js";
import { checkPatchedName } from "../patch/patched-object.js";
import { groupResource } from "../registry/kinds.js";
import type { ApiContext, Target } from "./api-context.js";
import { readIntent } from "./apply-intent.js";
import { applyScale } from "./apply-scale.js";
import { createObject, type WriteOptions } from "./create-object.js";
import { applyIntent, type FieldOwner } from "./field-ownership.js";
import { getObject } from "./get-object.js";
import type { ApplyOptions, ApplyResult } from "./patch-options.js";
import { pinnedTo } from "./patch-precondition.js";
import { scaleRecord } from "./scale-object.js";
import { updateObject } from "./update-object.js";

const maxApplyAttempts = 5;

/** The object `target` holds now, or undefined when an apply is to create it. */
async function liveObject(api: ApiContext, target: Target): Promise<KubeObject | undefined> {
  try {
    return (await getObject(api, { ...target, subresource: undefined })).object;
  } catch (error) {
    if (error instanceof StatusError && error.code === 404 && target.subresource === undefined) return undefined;
    throw error;
  }
}

/** One attempt at an apply: the written object, or undefined when a concurrent write means trying again. */
async function applyOnce(
  api: ApiContext,
  target: Target,
  config: KubeObject,
  owner: FieldOwner & { force: boolean },
  options: WriteOptions,
): Promise<{ object: KubeObject; created: boolean } | undefined> {
  const live = await liveObject(api, target);
  const intent = applyIntent(target, live, config, owner, api.now());
  checkPatchedName(intent, target.name as string);
  const named = (intent.metadata as { name?: unknown } | undefined)?.name;
  if (named !== target.name) {
    throw badRequest(`the name of the object (${String(named)}) does not match the name on the URL (${target.name})`);
  }
  if (live === undefined) {
    // kube creates through its update path, which ignores the configuration's resourceVersion.
    delete (intent.metadata as Record<string, unknown>).resourceVersion;
    try {
      return { object: await createObject(api, target, intent, options), created: true };
    } catch (error) {
      if (error instanceof StatusError && error.reason === "AlreadyExists") return undefined;
      throw error;
    }
  }
  const pinned = pinnedTo(intent, live);
  try {
    return await updateObject(api, target, intent, options);
  } catch (error) {
    if (!isConflict(error) || pinned) throw error;
    return undefined;
  }
}

export async function applyObject(
  api: ApiContext,
  target: Target,
  body: Buffer,
  options: ApplyOptions,
): Promise<ApplyResult> {
  const owner = { manager: options.fieldManager, force: options.force === true };
  const level = options.fieldValidation ?? "Warn";
  const writeOptions: WriteOptions = {
    ...(options.dryRun === undefined ? {} : { dryRun: options.dryRun }),
    ...(options.request === undefined ? {} : { request: options.request }),
    ...(options.authorizeCreate === undefined ? {} : { authorizeCreate: options.authorizeCreate }),
  };
  if (target.subresource === "scale") {
    const record = scaleRecord(target);
    const { config, warnings } = readIntent(body, record.kind, level);
    const object = await applyScale(api, target, config, owner, writeOptions);
    return { object, created: false, warnings };
  }
  const { config, warnings } = readIntent(body, target.kind, level);
  for (let attempt = 0; attempt < maxApplyAttempts; attempt++) {
    const result = await applyOnce(api, target, config, owner, { ...writeOptions, applied: true });
    if (result !== undefined) return { ...result, warnings };
  }
  throw conflict(groupResource(target.kind), target.name as string, "the object kept changing while it was applied");
}
