// kube's podutil.HasAPIObjectReference: the first kind of API object a pod refers to, which a mirror pod
// (a static pod the kubelet reflects into the API) may not, since nothing authorizes the node to read it.

import { podConfigMapNames, podSecretNames } from "../../authz/node/object-references.js";
import { asObject, type JsonObject, listItems } from "../../validation/walk.js";

/** Volume types that read nothing from the API. */
const apiFreeVolumes = [
  "awsElasticBlockStore",
  "azureDisk",
  "cephfs",
  "cinder",
  "downwardAPI",
  "emptyDir",
  "fc",
  "flexVolume",
  "flocker",
  "gcePersistentDisk",
  "gitRepo",
  "hostPath",
  "image",
  "iscsi",
  "nfs",
  "photonPersistentDisk",
  "portworxVolume",
  "quobyte",
  "rbd",
  "scaleIO",
  "storageos",
  "vsphereVolume",
];

/** Volume types that read an API object, and how kube names it. */
const apiVolumes: [string, string][] = [
  ["configMap", "configmaps (via configmap volumes)"],
  ["secret", "secrets (via secret volumes)"],
  ["csi", "csidrivers (via CSI volumes)"],
  ["glusterfs", "endpoints (via glusterFS volumes)"],
  ["persistentVolumeClaim", "persistentvolumeclaims"],
  ["ephemeral", "persistentvolumeclaims (via ephemeral volumes)"],
  ["azureFile", "secrets (via azureFile volumes)"],
];

const projectedSources: [string, string][] = [
  ["configMap", "configmaps (via projected volumes)"],
  ["secret", "secrets (via projected volumes)"],
  ["serviceAccountToken", "serviceaccounts (via projected volumes)"],
  ["clusterTrustBundle", "clustertrustbundles"],
  ["podCertificate", "podcertificates"],
];

/** Raised for a volume kube cannot classify; NodeRestriction reports it as an error checking the pod. */
export class UnknownVolumeError extends Error {}

function has(source: JsonObject, field: string): boolean {
  return source[field] !== undefined && source[field] !== null;
}

function volumeReference(volume: JsonObject): string | undefined {
  if (apiFreeVolumes.some((type) => has(volume, type))) return undefined;
  const api = apiVolumes.find(([type]) => has(volume, type));
  if (api !== undefined) return api[1];
  const projected = asObject(volume.projected);
  if (projected === undefined) throw new UnknownVolumeError(`unknown volume type for volume  "${volume.name}"`);
  for (const item of listItems(projected.sources)) {
    const source = asObject(item) ?? {};
    const found = projectedSources.find(([type]) => has(source, type));
    if (found !== undefined) return found[1];
    if (!has(source, "downwardAPI"))
      throw new UnknownVolumeError(`unknown source for projected volume "${volume.name}"`);
  }
  return undefined;
}

/** What the pod refers to (kube's resource text), or undefined when it refers to no API object. */
export function podApiReference(pod: JsonObject): string | undefined {
  const spec = asObject(pod.spec) ?? {};
  if (typeof spec.serviceAccountName === "string" && spec.serviceAccountName !== "") return "serviceaccounts";
  if (podSecretNames(pod).length > 0) return "secrets";
  if (podConfigMapNames(pod).length > 0) return "configmaps";
  if (listItems(spec.resourceClaims).length > 0) return "resourceclaims";
  for (const volume of listItems(spec.volumes)) {
    const reference = volumeReference(asObject(volume) ?? {});
    if (reference !== undefined) return reference;
  }
  return undefined;
}
