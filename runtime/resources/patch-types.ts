// The patch types a kind serves. kube's API names them by media type (its types.PatchType values), so a
// PATCH's Content-Type and an in-process caller's choice are refused alike: every kind takes JSON Patch,
// merge patch and apply; strategic merge patch needs the kind's Go struct tags, so only built-in kinds do.
import { fieldTable } from "../../generated/fields.js";
import { validationKey } from "../../generated/validation.js";
import { type StatusError, unsupportedMediaType } from "../errors/status-error.js";
import type { PatchType as DocumentPatchType } from "../patch/patched-object.js";
import { servesStrategicMergePatch } from "../patch/strategic-merge-patch.js";
import type { ServedKind } from "../registry/served-kind.js";

/** A patch document's type; server-side apply is the fourth, "apply". */
export type PatchType = DocumentPatchType;

export const patchMediaTypes: ReadonlyMap<string, PatchType | "apply"> = new Map([
  ["application/json-patch+json", "json"],
  ["application/merge-patch+json", "merge"],
  ["application/strategic-merge-patch+json", "strategic"],
  ["application/apply-patch+yaml", "apply"],
]);

export function servesPatchType(kind: ServedKind, type: PatchType | "apply"): boolean {
  return (
    type !== "strategic" || servesStrategicMergePatch(fieldTable, validationKey(kind.group, kind.version, kind.kind))
  );
}

/** kube's 415 for a patch type the kind does not take, listing those it does. */
export function unservedPatchType(kind: ServedKind): StatusError {
  const accepted = [...patchMediaTypes].filter(([, type]) => servesPatchType(kind, type)).map(([media]) => media);
  return unsupportedMediaType(accepted);
}
