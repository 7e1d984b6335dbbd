// Pods and volumes for Node authorizer tests.
import type { KubeObject } from "../../../../runtime/object/kube-object.js";

export function pod(
  namespace: string,
  name: string,
  nodeName: string,
  spec: Record<string, unknown> = {},
  extra: { annotations?: Record<string, string>; status?: Record<string, unknown> } = {},
): KubeObject {
  return {
    metadata: { namespace, name, ...(extra.annotations === undefined ? {} : { annotations: extra.annotations }) },
    spec: { containers: [{ name: "c", image: "busybox" }], ...(nodeName === "" ? {} : { nodeName }), ...spec },
    ...(extra.status === undefined ? {} : { status: extra.status }),
  };
}

export function persistentVolume(name: string, claim: { namespace: string; name: string }, source = {}): KubeObject {
  return {
    metadata: { name },
    spec: {
      capacity: { storage: "1Gi" },
      accessModes: ["ReadWriteOnce"],
      claimRef: claim,
      ...(Object.keys(source).length === 0 ? { hostPath: { path: "/tmp/pv" } } : source),
    },
  };
}
