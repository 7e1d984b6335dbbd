// Ownership through the scale subresource, as kube's ScaleHandler keeps it: a Scale's managedFields are
// the parent's managers that own the replicas path, each owning the Scale's `.spec.replicas`; after an
// apply to the Scale they are handed back, the Scale's owners of `.spec.replicas` owning the parent's
// replicas path in the parent's apiVersion.
import { FieldSet } from "./fieldpath/field-set.js";
import { fieldElement, type Path } from "./fieldpath/path-element.js";
import {
  decodeManagedFields,
  encodeManagedFields,
  type ManagedFieldsEntry,
  type ManagedState,
} from "./managed-fields.js";

const scaleReplicas: Path = [fieldElement("spec"), fieldElement("replicas")];

/** `.spec.replicas` as a field path. */
export function replicasPath(dotted: string): Path {
  return dotted.replace(/^\./, "").split(".").map(fieldElement);
}

/** The Scale's managedFields: every parent manager owning `parentPath`, owning the Scale's replicas. */
export function scaleEntriesOf(
  parentEntries: unknown,
  parentPath: Path,
  scaleApiVersion: string,
): ManagedFieldsEntry[] | undefined {
  const parent = decodeManagedFields(parentEntries);
  const scale: ManagedState = { managers: new Map(), times: new Map() };
  for (const [key, versioned] of parent.managers) {
    if (!versioned.set.has(parentPath)) continue;
    scale.managers.set(key, { ...versioned, set: FieldSet.of(scaleReplicas), apiVersion: scaleApiVersion });
    const time = parent.times.get(key);
    if (time !== undefined) scale.times.set(key, time);
  }
  return encodeManagedFields(scale);
}

/**
 * The parent's managedFields after a write to its Scale: a parent manager owning the replicas path keeps
 * its entry when it still manages the Scale and has the path taken away when it does not; the Scale's
 * other owners of `.spec.replicas` own the parent's replicas path.
 */
export function parentEntriesAfterScale(
  parentEntries: unknown,
  scaleEntries: unknown,
  parentPath: Path,
  parentApiVersion: string,
): ManagedFieldsEntry[] | undefined {
  const parent = decodeManagedFields(parentEntries);
  const scale = decodeManagedFields(scaleEntries);
  const remaining = new Map(scale.managers);
  for (const [key, versioned] of [...parent.managers]) {
    if (!versioned.set.has(parentPath)) continue;
    if (remaining.delete(key)) continue;
    const rest = versioned.set.difference(FieldSet.of(parentPath));
    if (rest.isEmpty()) {
      parent.managers.delete(key);
      parent.times.delete(key);
    } else parent.managers.set(key, { ...versioned, set: rest });
  }
  for (const [key, versioned] of remaining) {
    if (!versioned.set.has(scaleReplicas)) continue;
    parent.managers.set(key, {
      set: FieldSet.of(parentPath),
      apiVersion: parentApiVersion,
      applied: versioned.applied,
    });
    const time = scale.times.get(key);
    if (time !== undefined) parent.times.set(key, time);
  }
  return encodeManagedFields(parent);
}
