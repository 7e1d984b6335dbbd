// The service account token volume kube's ServiceAccount admission adds to a new pod: one projected
// volume (a bound token, the cluster's CA bundle and the pod's namespace) mounted read-only at the path
// client libraries read in-cluster credentials from, in every container and init container.
import type { KubeObject } from "../../object/kube-object.js";
import { generateName } from "../../resources/generate-name.js";
import { asObject, type JsonObject, listItems } from "../../validation/walk.js";

/** Where client libraries look for the token, the CA bundle and the namespace. */
export const tokenMountPath = "/var/run/secrets/kubernetes.io/serviceaccount";

/** The prefix of the volume's name; an existing volume with it is reused. */
const volumePrefix = "kube-api-access-";

/** kube's WarnOnlyBoundTokenExpirationSeconds: an hour and seven seconds, which marks tokens it may extend. */
const tokenExpirationSeconds = 3607;

/** corev1.ProjectedVolumeSourceDefaultMode, 0644. */
const projectedDefaultMode = 0o644;

/** The projected source, its fields in kube's order. */
function tokenVolumeSource(): JsonObject {
  return {
    sources: [
      { serviceAccountToken: { expirationSeconds: tokenExpirationSeconds, path: "token" } },
      { configMap: { name: "kube-root-ca.crt", items: [{ key: "ca.crt", path: "ca.crt" }] } },
      {
        downwardAPI: {
          items: [{ path: "namespace", fieldRef: { apiVersion: "v1", fieldPath: "metadata.namespace" } }],
        },
      },
    ],
    defaultMode: projectedDefaultMode,
  };
}

/** Whether a container already mounts something at the token path (which then stays as it is). */
function mountsTokenPath(container: JsonObject): boolean {
  return listItems(container.volumeMounts).some((mount) => asObject(mount)?.mountPath === tokenMountPath);
}

/**
 * Mounts the token volume into every container and init container that has nothing at the token path, and
 * adds the volume when one of them needed it. Ephemeral containers are left alone, as kube leaves them.
 */
export function mountServiceAccountToken(pod: KubeObject): void {
  const spec = asObject(pod.spec);
  if (spec === undefined) return;
  const volumes = listItems(spec.volumes);
  const existing = volumes
    .map((volume) => asObject(volume)?.name)
    .find((name): name is string => typeof name === "string" && name.startsWith(volumePrefix));
  const volumeName = existing ?? generateName(volumePrefix);
  let mounted = false;
  for (const list of ["initContainers", "containers"]) {
    for (const item of listItems(spec[list])) {
      const container = asObject(item);
      if (container === undefined || mountsTokenPath(container)) continue;
      const mount = { name: volumeName, readOnly: true, mountPath: tokenMountPath };
      container.volumeMounts = [...listItems(container.volumeMounts), mount];
      mounted = true;
    }
  }
  if (existing === undefined && mounted)
    spec.volumes = [...volumes, { name: volumeName, projected: tokenVolumeSource() }];
}
