// Which secrets a pod names, for the ServiceAccount admission's two checks: mirror pods may name none, and
// a service account annotated `kubernetes.io/enforce-mountable-secrets` limits pods to the secrets it lists.
import { asObject, type JsonObject, listItems } from "../../validation/walk.js";

function name(value: unknown, field: string): string {
  const text = asObject(value)?.[field];
  return typeof text === "string" ? text : "";
}

function containerSecretNames(container: JsonObject): string[] {
  const names = listItems(container.envFrom).map((source) => name(asObject(source)?.secretRef, "name"));
  for (const env of listItems(container.env)) {
    const ref = asObject(asObject(asObject(env)?.valueFrom)?.secretKeyRef);
    if (ref !== undefined) names.push(name(ref, "name"));
  }
  return names;
}

/** The volume sources that name a secret, in kube's order: source, field, and the field inside it ("" for a string). */
const secretVolumeFields: readonly (readonly [string, string, string])[] = [
  ["azureFile", "secretName", ""],
  ["cephfs", "secretRef", "name"],
  ["cinder", "secretRef", "name"],
  ["flexVolume", "secretRef", "name"],
  ["projected", "sources", ""],
  ["rbd", "secretRef", "name"],
  ["secret", "secretName", ""],
  ["scaleIO", "secretRef", "name"],
  ["iscsi", "secretRef", "name"],
  ["storageos", "secretRef", "name"],
  ["csi", "nodePublishSecretRef", "name"],
];

/** The secrets the volume's first source (in kube's order) names. */
function volumeSecretNames(volume: JsonObject): string[] {
  for (const [source, field, inner] of secretVolumeFields) {
    const value = asObject(volume[source]);
    if (value === undefined) continue;
    if (source === "projected") return listItems(value.sources).map((item) => name(asObject(item)?.secret, "name"));
    return [inner === "" ? name(value, field) : name(value[field], inner)];
  }
  return [];
}

/** kube's VisitPodSecretNames over all containers: pull secrets, containers' env, volumes; empty names skipped. */
export function podSecretNames(spec: JsonObject): string[] {
  const names = listItems(spec.imagePullSecrets).map((ref) => name(ref, "name"));
  for (const list of ["initContainers", "containers", "ephemeralContainers"]) {
    for (const container of listItems(spec[list])) names.push(...containerSecretNames(asObject(container) ?? {}));
  }
  for (const volume of listItems(spec.volumes)) names.push(...volumeSecretNames(asObject(volume) ?? {}));
  return names.filter((secret) => secret !== "");
}

/** Whether a pod's volumes include a projected service account token. */
export function projectsServiceAccountToken(spec: JsonObject): boolean {
  return listItems(spec.volumes).some((volume) =>
    listItems(asObject(asObject(volume)?.projected)?.sources).some(
      (source) => asObject(source)?.serviceAccountToken != null,
    ),
  );
}

/** The names a service account lists under `secrets` or `imagePullSecrets`. */
export function referencedNames(serviceAccount: JsonObject, field: "secrets" | "imagePullSecrets"): Set<string> {
  return new Set(listItems(serviceAccount[field]).map((ref) => name(ref, "name")));
}

/**
 * kube's limitSecretReferences: the first reference to a secret the service account does not list, as kube
 * words it (volumes, then init containers, then containers, then pull secrets); undefined when all are listed.
 */
export function unlistedSecretReference(spec: JsonObject, serviceAccount: JsonObject): string | undefined {
  const saName = name(serviceAccount.metadata, "name");
  const mountable = referencedNames(serviceAccount, "secrets");
  for (const volume of listItems(spec.volumes)) {
    const secret = asObject(asObject(volume)?.secret);
    if (secret === undefined) continue;
    const secretName = name(secret, "secretName");
    if (!mountable.has(secretName)) {
      return `volume with secret.secretName="${secretName}" is not allowed because service account ${saName} does not reference that secret`;
    }
  }
  for (const [list, what] of [
    ["initContainers", "init container"],
    ["containers", "container"],
  ] as const) {
    for (const item of listItems(spec[list])) {
      const refused = unlistedContainerSecret(asObject(item) ?? {}, what, mountable, saName);
      if (refused !== undefined) return refused;
    }
  }
  const pullSecrets = referencedNames(serviceAccount, "imagePullSecrets");
  const pullRefs = listItems(spec.imagePullSecrets);
  for (let i = 0; i < pullRefs.length; i++) {
    const pullName = name(pullRefs[i], "name");
    if (!pullSecrets.has(pullName)) {
      return `imagePullSecrets[${i}].name="${pullName}" is not allowed because service account ${saName} does not reference that imagePullSecret`;
    }
  }
  return undefined;
}

/** One container's env and envFrom secret references that the service account does not list, in kube's words. */
export function unlistedContainerSecret(
  container: JsonObject,
  what: "init container" | "container" | "ephemeral container",
  mountable: ReadonlySet<string>,
  saName: string,
): string | undefined {
  const containerName = name(container, "name");
  const notListed = `is not allowed because service account ${saName} does not reference that secret`;
  for (const item of listItems(container.env)) {
    const env = asObject(item) ?? {};
    const ref = asObject(asObject(env.valueFrom)?.secretKeyRef);
    if (ref === undefined || mountable.has(name(ref, "name"))) continue;
    return `${what} ${containerName} with envVar ${name(env, "name")} referencing secret.secretName="${name(ref, "name")}" ${notListed}`;
  }
  for (const item of listItems(container.envFrom)) {
    const ref = asObject(asObject(item)?.secretRef);
    if (ref === undefined || mountable.has(name(ref, "name"))) continue;
    return `${what} ${containerName} with envFrom referencing secret.secretName="${name(ref, "name")}" ${notListed}`;
  }
  return undefined;
}
