// A patch document decoded once, as kube's patcher decodes each type, and applied to every object a patch
// is tried on (a retry after a conflict applies it again to the newer object).
import type { GroupVersionKind } from "../codecs/decode-errors.js";
import type { FieldValidation } from "../codecs/field-validation.js";
import { parseJson } from "../codecs/json-body.js";
import { badRequest } from "../errors/status-error.js";
import type { KubeObject } from "../object/kube-object.js";
import { applyJsonPatch, decodeJsonPatch } from "../patch/json-patch.js";
import { applyMergePatch } from "../patch/merge-patch.js";
import type { Patched, PatchType } from "../patch/patched-object.js";
import { applyStrategicMergePatch } from "../patch/strategic-merge-patch.js";
import type { CustomKind } from "../registry/served-kind.js";
import { managedSchemaOf } from "./field-ownership.js";

export interface DecodedPatch {
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

/** `kind` is what the patch applies to: the served kind, or a subresource's (autoscaling/v1 Scale). */
export function decodePatch(
  type: PatchType,
  body: Buffer,
  level: FieldValidation,
  kind: GroupVersionKind & { custom?: CustomKind },
): DecodedPatch {
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
