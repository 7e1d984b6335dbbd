// What a pod or persistent volume refers to by name, as kube's podutil.VisitPodSecretNames,
// VisitPodConfigmapNames, the pod's volume claims and resource claims, and pvutil.VisitPVSecretNames read
// them: the objects a node may read because a pod bound to it (or a volume it mounts) needs them.

type Json = Record<string, unknown>;

function obj(value: unknown): Json | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
}

function list(value: unknown): Json[] {
  return Array.isArray(value) ? value.map(obj).filter((v): v is Json => v !== undefined) : [];
}

function str(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** `field.name` when the field is set. */
function refName(owner: Json | undefined, field: string): string | undefined {
  const ref = obj(owner?.[field]);
  return ref === undefined ? undefined : str(ref.name);
}

function containers(spec: Json): Json[] {
  return [...list(spec.initContainers), ...list(spec.containers), ...list(spec.ephemeralContainers)];
}

/** Names without the empty ones, which refer to nothing. */
function named(names: (string | undefined)[]): string[] {
  return [...new Set(names.filter((n): n is string => n !== undefined && n !== ""))];
}

/** The secret a pod volume source names, by volume type. */
function volumeSecrets(volume: Json): (string | undefined)[] {
  const azureFile = obj(volume.azureFile);
  if (azureFile !== undefined) return [str(azureFile.secretName)];
  for (const type of ["cephfs", "cinder", "flexVolume", "rbd", "scaleIO", "iscsi", "storageos"]) {
    const source = obj(volume[type]);
    if (source !== undefined) return [refName(source, "secretRef")];
  }
  const projected = obj(volume.projected);
  if (projected !== undefined) return list(projected.sources).map((s) => refName(s, "secret"));
  const secret = obj(volume.secret);
  if (secret !== undefined) return [str(secret.secretName)];
  const csi = obj(volume.csi);
  if (csi !== undefined) return [refName(csi, "nodePublishSecretRef")];
  return [];
}

export function podSecretNames(pod: Json): string[] {
  const spec = obj(pod.spec) ?? {};
  const names = list(spec.imagePullSecrets).map((r) => str(r.name)) as (string | undefined)[];
  for (const c of containers(spec)) {
    for (const from of list(c.envFrom)) names.push(refName(from, "secretRef"));
    for (const env of list(c.env)) names.push(refName(obj(env.valueFrom), "secretKeyRef"));
  }
  for (const volume of list(spec.volumes)) names.push(...volumeSecrets(volume));
  return named(names);
}

export function podConfigMapNames(pod: Json): string[] {
  const spec = obj(pod.spec) ?? {};
  const names: (string | undefined)[] = [];
  for (const c of containers(spec)) {
    for (const from of list(c.envFrom)) names.push(refName(from, "configMapRef"));
    for (const env of list(c.env)) names.push(refName(obj(env.valueFrom), "configMapKeyRef"));
  }
  for (const volume of list(spec.volumes)) {
    const projected = obj(volume.projected);
    if (projected !== undefined) names.push(...list(projected.sources).map((s) => refName(s, "configMap")));
    else names.push(refName(volume, "configMap"));
  }
  return named(names);
}

/** PVCs: `persistentVolumeClaim.claimName`, and `<pod>-<volume>` for generic ephemeral volumes. */
export function podClaimNames(pod: Json): string[] {
  const podName = str(obj(pod.metadata)?.name);
  return named(
    list(obj(pod.spec)?.volumes).map((v) => {
      const claim = obj(v.persistentVolumeClaim);
      if (claim !== undefined) return str(claim.claimName);
      return obj(v.ephemeral) === undefined ? undefined : `${podName}-${str(v.name)}`;
    }),
  );
}

/** ResourceClaims: named directly, or generated from a template and recorded in the pod's status. */
export function podResourceClaimNames(pod: Json): string[] {
  const spec = obj(pod.spec) ?? {};
  const status = obj(pod.status) ?? {};
  const statuses = list(status.resourceClaimStatuses);
  const names = list(spec.resourceClaims).map((claim) => {
    if (typeof claim.resourceClaimName === "string") return claim.resourceClaimName;
    if (typeof claim.resourceClaimTemplateName !== "string") return undefined;
    const recorded = statuses.find((s) => s.name === claim.name);
    return recorded === undefined ? undefined : str(recorded.resourceClaimName);
  });
  names.push(str(obj(status.extendedResourceClaimStatus)?.resourceClaimName));
  return named(names);
}

export interface SecretReference {
  namespace: string;
  name: string;
  /** Whether the kubelet reads it (CSI controller secrets are for controllers only). */
  kubeletVisible: boolean;
}

/** A secret reference in a PV source: its own namespace when set, else the bound claim's. */
function pvSecretRef(ref: Json | undefined, claimNamespace: string, ownNamespace: boolean): SecretReference[] {
  if (ref === undefined) return [];
  const namespace = ownNamespace || str(ref.namespace) !== "" ? str(ref.namespace) : claimNamespace;
  return [{ namespace, name: str(ref.name), kubeletVisible: true }];
}

export function persistentVolumeSecrets(pv: Json): SecretReference[] {
  const spec = obj(pv.spec) ?? {};
  const claimNamespace = str(obj(spec.claimRef)?.namespace);
  let refs: SecretReference[] = [];
  const azureFile = obj(spec.azureFile);
  const csi = obj(spec.csi);
  if (azureFile !== undefined) {
    const own = str(azureFile.secretNamespace);
    refs = [{ namespace: own === "" ? claimNamespace : own, name: str(azureFile.secretName), kubeletVisible: true }];
  } else if (csi !== undefined) {
    const secret = (field: string, kubeletVisible: boolean): SecretReference[] =>
      pvSecretRef(obj(csi[field]), claimNamespace, true).map((r) => ({ ...r, kubeletVisible }));
    refs = [
      ...secret("controllerPublishSecretRef", false),
      ...secret("controllerExpandSecretRef", false),
      ...secret("nodePublishSecretRef", true),
      ...secret("nodeStageSecretRef", true),
      ...secret("nodeExpandSecretRef", true),
    ];
  } else {
    // Cinder and StorageOS name the namespace themselves; the others fall back to the claim's.
    const sources: [string, boolean][] = [
      ["cephfs", false],
      ["cinder", true],
      ["flexVolume", false],
      ["rbd", false],
      ["scaleIO", false],
      ["iscsi", false],
      ["storageos", true],
    ];
    const found = sources.find(([type]) => obj(spec[type]) !== undefined);
    if (found !== undefined) refs = pvSecretRef(obj(obj(spec[found[0]])?.secretRef), claimNamespace, found[1]);
  }
  return refs.filter((r) => r.name !== "");
}
