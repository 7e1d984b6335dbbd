// kube's StorageObjectInUseProtection admission: PersistentVolumes, PersistentVolumeClaims and
// VolumeAttributesClasses are created with their protection finalizer, so that a delete waits until the
// protection controllers (runtime/controllers/pvc-protection.ts, pv-protection.ts, vac-protection.ts) find
// the object unused.
import type { AdmissionPlugin } from "../admission.js";
import { isMainResource } from "./resource-match.js";

export const pvcProtectionFinalizer = "kubernetes.io/pvc-protection";
export const pvProtectionFinalizer = "kubernetes.io/pv-protection";
export const vacProtectionFinalizer = "kubernetes.io/vac-protection";

const protectedResources: readonly { group: string; plural: string; finalizer: string }[] = [
  { group: "", plural: "persistentvolumes", finalizer: pvProtectionFinalizer },
  { group: "", plural: "persistentvolumeclaims", finalizer: pvcProtectionFinalizer },
  { group: "storage.k8s.io", plural: "volumeattributesclasses", finalizer: vacProtectionFinalizer },
];

export function storageObjectInUseProtection(): AdmissionPlugin {
  return {
    name: "StorageObjectInUseProtection",
    mutate(a) {
      if (a.operation !== "CREATE" || a.object === undefined) return;
      const target = protectedResources.find((r) => isMainResource(a, r.group, r.plural));
      if (target === undefined) return;
      const meta = (a.object.metadata ?? {}) as { finalizers?: string[] };
      const finalizers = meta.finalizers ?? [];
      if (finalizers.includes(target.finalizer)) return;
      a.object.metadata = { ...meta, finalizers: [...finalizers, target.finalizer] };
    },
  };
}
