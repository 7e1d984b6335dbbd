// What a caller hands ResourceApi's patch and apply besides the target: the document, and kube's
// PatchOptions (who writes, dry run, field validation, force) with the API request behind it for admission.
import type { AdmissionRequestInfo } from "../admission/admission.js";
import type { FieldValidation } from "../codecs/field-validation.js";
import type { KubeObject } from "../object/kube-object.js";

/**
 * The patch or apply configuration as sent (JSON or, for apply, YAML text), or a value written as JSON.
 * Decoding it is the verb's work, so its errors come in kube's order (a missing object's 404 first).
 */
export type PatchDocument = string | Uint8Array | readonly unknown[] | KubeObject;

export interface PatchOptions {
  /** Who writes, for managedFields; the server's own controllers when absent. */
  fieldManager?: string;
  dryRun?: boolean;
  /** How unknown fields and other strict-decoding problems are answered; kube's default, Warn, when absent. */
  fieldValidation?: FieldValidation;
  /** The API request the write serves, for admission. */
  request?: AdmissionRequestInfo;
  /** For an apply that creates the object: whether the user may create. */
  authorizeCreate?: () => Promise<void>;
}

export interface ApplyOptions extends PatchOptions {
  fieldManager: string;
  /** Take fields other managers own instead of answering 409 Conflict. */
  force?: boolean;
}

export interface PatchResult {
  object: KubeObject;
  /** Field validation's warnings (under Warn), for the response. */
  warnings: string[];
}

export interface ApplyResult extends PatchResult {
  created: boolean;
}

export function documentBytes(document: PatchDocument): Buffer {
  if (typeof document === "string") return Buffer.from(document, "utf8");
  if (document instanceof Uint8Array) return Buffer.from(document.buffer, document.byteOffset, document.byteLength);
  return Buffer.from(JSON.stringify(document), "utf8");
}
