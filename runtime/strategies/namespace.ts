// Namespaces: Active on create with the `kubernetes` finalizer, the name as the
// kubernetes.io/metadata.name label, spec.finalizers changed only through the finalize subresource,
// the phase rules of a status update, and the deleted namespace returned by a delete.
import { type FieldError, invalid } from "../errors/field-error.js";
import { child, index } from "../errors/field-path.js";
import type { KubeObject } from "../object/kube-object.js";
import { finalizerNameErrors } from "../validation/object-meta.js";
import { asObject, type JsonObject, listItems } from "../validation/walk.js";
import type { KindStrategy } from "./hook-request.js";

const nameLabel = "kubernetes.io/metadata.name";

/** A namespace carries its own name as a label, so selectors can pick namespaces by name. */
function labelWithName(obj: KubeObject): void {
  const meta = asObject(obj.metadata);
  if (meta === undefined || typeof meta.name !== "string" || meta.name === "") return;
  const labels = asObject(meta.labels) ?? {};
  labels[nameLabel] = meta.name;
  meta.labels = labels;
}

function specOf(obj: KubeObject): JsonObject {
  return asObject(obj.spec) ?? {};
}

function finalizerErrors(finalizers: unknown, path: (i: number) => string): FieldError[] {
  return listItems(finalizers).flatMap((f, i) => (typeof f === "string" ? finalizerNameErrors(f, path(i)) : []));
}

/** ValidateNamespaceStatusUpdate: the phase follows the deletion timestamp. */
function validatePhase(obj: KubeObject): FieldError[] {
  const phase = asObject(obj.status)?.phase ?? "";
  const deleting = asObject(obj.metadata)?.deletionTimestamp;
  // kube prints this path with a capital P.
  if (deleting === undefined || deleting === null) {
    return phase === "Active"
      ? []
      : [invalid("status.Phase", phase, "may only be 'Active' if `deletionTimestamp` is empty")];
  }
  return phase === "Terminating"
    ? []
    : [invalid("status.Phase", phase, "may only be 'Terminating' if `deletionTimestamp` is not empty")];
}

export const strategy: KindStrategy = {
  objectSubresources: ["finalize"],
  default: labelWithName,
  tracksGeneration: false,
  prepareForDelete(obj: KubeObject): void {
    obj.status = { ...(asObject(obj.status) ?? {}), phase: "Terminating" };
  },
  /** A deleting namespace stays until the namespace controller has emptied spec.finalizers. */
  deletionHeld(obj: KubeObject): boolean {
    return listItems(specOf(obj).finalizers).length > 0;
  },
  prepareForCreate(obj: KubeObject): void {
    obj.status = { phase: "Active" };
    const spec = specOf(obj);
    const finalizers = listItems(spec.finalizers);
    if (!finalizers.includes("kubernetes")) spec.finalizers = [...finalizers, "kubernetes"];
    obj.spec = spec;
    labelWithName(obj);
  },
  prepareForUpdate(obj: KubeObject, old: KubeObject, subresource?: string): void {
    const spec = specOf(obj);
    // An empty list is not kept (Go's omitempty), so a finalized namespace has an empty spec.
    if (subresource === "finalize" && listItems(spec.finalizers).length === 0) delete spec.finalizers;
    // Only the finalize subresource changes spec.finalizers.
    if (subresource !== undefined) return;
    const oldFinalizers = specOf(old).finalizers;
    if (oldFinalizers === undefined) delete spec.finalizers;
    else spec.finalizers = structuredClone(oldFinalizers);
    obj.spec = spec;
  },
  validate(obj: KubeObject, old?: KubeObject, subresource?: string): FieldError[] {
    if (subresource === "status") return validatePhase(obj);
    const path = child("spec", "finalizers");
    // The finalize subresource reports each finalizer on its index; a create reports them on the list.
    if (subresource === "finalize") return finalizerErrors(specOf(obj).finalizers, (i) => index(path, i));
    return old === undefined ? finalizerErrors(specOf(obj).finalizers, () => path) : [];
  },
  returnDeletedObject: true,
};
