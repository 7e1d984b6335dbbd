// Volumes and their classes: persistent volumes and claims, storage and volume attributes classes, volume
// attachments, CSI drivers and nodes. Quantities print as stored, which is their canonical form.
import type { JsonObject } from "../object/json-object.js";
import { at, list, obj, objects, str } from "./fields.js";
import type { PrinterCells } from "./printer-cell.js";

const accessModeShort: Readonly<Record<string, string>> = {
  ReadWriteOnce: "RWO",
  ReadOnlyMany: "ROX",
  ReadWriteMany: "RWX",
  ReadWriteOncePod: "RWOP",
};

/** helper.GetAccessModesAsString: the known modes, once each, in this order. */
function accessModes(modes: unknown): string {
  const present = new Set(list(modes).map(str));
  return Object.keys(accessModeShort)
    .filter((m) => present.has(m))
    .map((m) => accessModeShort[m])
    .join(",");
}

const deleting = (o: JsonObject) => at(o, "metadata", "deletionTimestamp") !== undefined;

/** helper.GetPersistentVolume(Claim)Class: the beta annotation first, then the field. */
function storageClass(o: JsonObject): string {
  const annotation = obj(at(o, "metadata", "annotations"))["volume.beta.kubernetes.io/storage-class"];
  return typeof annotation === "string" ? annotation : str(at(o, "spec", "storageClassName"));
}

function optional(value: unknown): string {
  return typeof value === "string" ? value : "<unset>";
}

function boolOr(value: unknown, fallback: boolean): boolean {
  return typeof value === "boolean" ? value : fallback;
}

function classWithDefault(sc: JsonObject): string {
  const annotations = obj(at(sc, "metadata", "annotations"));
  const isDefault =
    annotations["storageclass.kubernetes.io/is-default-class"] === "true" ||
    annotations["storageclass.beta.kubernetes.io/is-default-class"] === "true";
  const name = str(at(sc, "metadata", "name"));
  return isDefault ? `${name} (default)` : name;
}

function tokenRequests(driver: JsonObject): string {
  const requests = at(driver, "spec", "tokenRequests");
  if (!Array.isArray(requests)) return "<unset>";
  return objects(requests)
    .map((t) => str(t.audience))
    .join(",");
}

export const cells = {
  pvCapacity: (pv) => str(at(pv, "spec", "capacity", "storage")) || "0",
  pvAccessModes: (pv) => accessModes(at(pv, "spec", "accessModes")),
  pvReclaimPolicy: (pv) => str(at(pv, "spec", "persistentVolumeReclaimPolicy")),
  pvStatus: (pv) => (deleting(pv) ? "Terminating" : str(at(pv, "status", "phase"))),
  pvClaim: (pv) => {
    const ref = at(pv, "spec", "claimRef");
    return ref === undefined ? "" : `${str(obj(ref).namespace)}/${str(obj(ref).name)}`;
  },
  storageClass,
  volumeAttributesClass: (o) => optional(at(o, "spec", "volumeAttributesClassName")),
  pvReason: (pv) => str(at(pv, "status", "reason")),
  volumeMode: (o) => optional(at(o, "spec", "volumeMode")),
  pvcStatus: (pvc) => (deleting(pvc) ? "Terminating" : str(at(pvc, "status", "phase"))),
  pvcVolume: (pvc) => str(at(pvc, "spec", "volumeName")),
  pvcCapacity: (pvc) =>
    str(at(pvc, "spec", "volumeName")) === "" ? "" : str(at(pvc, "status", "capacity", "storage")) || "0",
  pvcAccessModes: (pvc) =>
    str(at(pvc, "spec", "volumeName")) === "" ? "" : accessModes(at(pvc, "status", "accessModes")),
  storageClassName: classWithDefault,
  provisioner: (sc) => str(sc.provisioner),
  reclaimPolicy: (sc) => str(sc.reclaimPolicy) || "Delete",
  volumeBindingMode: (sc) => str(sc.volumeBindingMode) || "Immediate",
  allowVolumeExpansion: (sc) => boolOr(sc.allowVolumeExpansion, false),
  driverName: (vac) => str(vac.driverName),
  attacher: (va) => str(at(va, "spec", "attacher")),
  attachmentVolume: (va) => str(at(va, "spec", "source", "persistentVolumeName")),
  attachmentNode: (va) => str(at(va, "spec", "nodeName")),
  attached: (va) => boolOr(at(va, "status", "attached"), false),
  attachRequired: (d) => boolOr(at(d, "spec", "attachRequired"), true),
  podInfoOnMount: (d) => boolOr(at(d, "spec", "podInfoOnMount"), false),
  storageCapacity: (d) => boolOr(at(d, "spec", "storageCapacity"), false),
  tokenRequests,
  requiresRepublish: (d) => boolOr(at(d, "spec", "requiresRepublish"), false),
  lifecycleModes: (d) =>
    list(at(d, "spec", "volumeLifecycleModes"))
      .map(str)
      .join(",") || "<none>",
  csiNodeDrivers: (n) => list(at(n, "spec", "drivers")).length,
} satisfies PrinterCells;
