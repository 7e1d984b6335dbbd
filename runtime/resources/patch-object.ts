// A patch (JSON Patch, merge patch, strategic merge patch) of an object, its status or its Scale, as kube's
// patcher runs it: the patch is applied to the object as stored now, the result is read as kube decodes
// it, and it goes through the update path guarded by the revision it was applied to; a concurrent write
// means applying it again to the newer object.
import type { GroupVersionKind } from "../codecs/decode-errors.js";
import { type FieldValidation, strictDecodingOutcome, unknownFieldProblem } from "../codecs/field-validation.js";
import { isConflict } from "../errors/status-error.js";
import type { KubeObject } from "../object/kube-object.js";
import {
  checkPatchedName,
  decodePatched,
  type Patched,
  patchRefused,
  pruneUnknownPatchedFields,
} from "../patch/patched-object.js";
import type { CustomKind } from "../registry/served-kind.js";
import type { ApiContext, Target } from "./api-context.js";
import { controllerOwner, type WriteOptions } from "./create-object.js";
import { type DecodedPatch, decodePatch } from "./decode-patch.js";
import { getObject } from "./get-object.js";
import type { PatchOptions, PatchResult } from "./patch-options.js";
import { pinnedTo } from "./patch-precondition.js";
import { type PatchType, servesPatchType, unservedPatchType } from "./patch-types.js";
import { scaleOf, scaleRecord, writeScale } from "./scale-object.js";
import { updateObject } from "./update-object.js";

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
): string[] {
  const unknown = pruneUnknownPatchedFields(patched, result, kind);
  const all = [...problems, ...unknown.map(unknownFieldProblem)];
  if (level !== "Strict" || all.length === 0) return strictDecodingOutcome(level, all);
  throw patchRefused(patched, `strict decoding error: ${all.join(", ")}`);
}

export async function patchObject(
  api: ApiContext,
  target: Target,
  type: PatchType,
  body: Buffer,
  options: PatchOptions = {},
): Promise<PatchResult> {
  if (!servesPatchType(target.kind, type)) throw unservedPatchType(target.kind);
  const level = options.fieldValidation ?? "Warn";
  const record = target.subresource === "scale" ? scaleRecord(target) : undefined;
  const parent: Target = { ...target, subresource: record === undefined ? target.subresource : undefined };
  const writeOptions: WriteOptions = {
    ...(options.dryRun === undefined ? {} : { dryRun: options.dryRun }),
    owner: {
      manager: options.fieldManager ?? controllerOwner.manager,
      ...(record === undefined ? {} : { subresource: "scale" }),
    },
    ...(options.request === undefined ? {} : { request: options.request }),
  };
  const kind = record?.kind ?? target.kind;
  let patch: DecodedPatch | undefined;
  for (;;) {
    const current = (await getObject(api, { ...parent, subresource: undefined })).object;
    // Decoded after the read: a missing object is a 404 whatever the patch holds.
    patch ??= decodePatch(type, body, level, kind);
    const before = record === undefined ? current : scaleOf(current, record);
    const patched = patch.apply(before);
    const result = decodePatched(patched, before, kind) as KubeObject;
    const warnings = patchWarnings(level, patch.problems, patched, result, kind);
    checkPatchedName(result, target.name as string);
    const pinned = pinnedTo(result, before);
    try {
      const object =
        record !== undefined
          ? await writeScale(api, target, record, result, writeOptions)
          : (await updateObject(api, parent, result, writeOptions)).object;
      return { object, warnings };
    } catch (error) {
      if (!isConflict(error) || pinned) throw error;
    }
  }
}
