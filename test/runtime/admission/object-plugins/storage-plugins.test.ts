// DefaultStorageClass, StorageObjectInUseProtection and PersistentVolumeClaimResize, on by default, driven
// by kubectl and raw HTTP. Expected values are kube-apiserver v1.36.2's answers to the same requests
// (uids, times and resourceVersions left out; the annotations kube's PV controller adds are not admission's).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { haveKubectl, type KubectlSession, startKubectlSession } from "../../../e2e/kubectl-session.js";

const storageClasses = `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: g-old
  annotations:
    storageclass.kubernetes.io/is-default-class: "true"
provisioner: example.com/none
allowVolumeExpansion: true
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: g-beta
  annotations:
    storageclass.beta.kubernetes.io/is-default-class: "true"
provisioner: example.com/none
`;

const newestClass = `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: g-new
  annotations:
    storageclass.kubernetes.io/is-default-class: "true"
provisioner: example.com/none
`;

const claim = (name: string, extra = "") => `apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: ${name}
  namespace: g-ns1
spec:
  accessModes: [ReadWriteOnce]
  resources:
    requests:
      storage: 1Gi
${extra}`;

/** kube's dry-run answer to `kubectl create -f pvc.yaml` with g-old and g-beta the defaults. */
const claimWithBeta = {
  metadata: { finalizers: ["kubernetes.io/pvc-protection"], name: "g-claim", namespace: "g-ns1" },
  spec: {
    accessModes: ["ReadWriteOnce"],
    resources: { requests: { storage: "1Gi" } },
    storageClassName: "g-beta",
    volumeMode: "Filesystem",
  },
  status: { phase: "Pending" },
};

interface Obj {
  metadata: Record<string, unknown>;
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
}

/** The object without what differs from run to run. */
function normalized(text: string): Obj {
  const obj = JSON.parse(text) as Obj;
  const { uid: _u, resourceVersion: _r, creationTimestamp: _c, managedFields: _m, ...metadata } = obj.metadata;
  return { metadata, ...(obj.spec ? { spec: obj.spec } : {}), ...(obj.status ? { status: obj.status } : {}) };
}

describe.skipIf(!haveKubectl)("storage admission plugins", () => {
  let s: KubectlSession;

  beforeAll(async () => {
    s = await startKubectlSession({ controllers: false });
    await s.kubectl("create", "namespace", "g-ns1");
  });
  afterAll(() => s?.close());

  it("gives a claim without a class the newest default StorageClass, and its protection finalizer", async () => {
    const bare = s.file("pvc.yaml", claim("g-claim"));
    // No default class yet: the claim keeps no class.
    const none = normalized(await s.kubectl("create", "-f", bare, "--dry-run=server", "-o", "json"));
    expect(none.spec?.storageClassName).toBeUndefined();
    expect(none.metadata.finalizers).toEqual(["kubernetes.io/pvc-protection"]);

    // g-beta is created after g-old: newer, or of the same second and first by name; the beta annotation counts.
    await s.kubectl("create", "-f", s.file("sc.yaml", storageClasses));
    await s.kubectl("create", "-f", bare);
    expect(normalized(await s.kubectl("get", "pvc", "-n", "g-ns1", "g-claim", "-o", "json"))).toEqual(claimWithBeta);

    await new Promise((resolve) => setTimeout(resolve, 1100));
    await s.kubectl("create", "-f", s.file("sc-new.yaml", newestClass));
    const newest = normalized(
      await s.kubectl("create", "-f", s.file("pvc2.yaml", claim("g-claim2")), "--dry-run=server", "-o", "json"),
    );
    expect(newest.spec?.storageClassName).toBe("g-new");
  });

  it("leaves a claim that names a class, even an empty one, as it is", async () => {
    const empty = normalized(
      await s.kubectl(
        "create",
        "-f",
        s.file("pvc-empty.yaml", claim("g-claim-empty", '  storageClassName: ""\n')),
        "--dry-run=server",
        "-o",
        "json",
      ),
    );
    expect(empty.spec?.storageClassName).toBe("");
    const beta = s.file(
      "pvc-beta.yaml",
      claim("g-claim-beta").replace(
        "namespace: g-ns1",
        'namespace: g-ns1\n  annotations: {volume.beta.kubernetes.io/storage-class: ""}',
      ),
    );
    const out = await s.kubectl("create", "-f", beta, "--dry-run=server", "-o", "json");
    expect(normalized(out).spec?.storageClassName).toBeUndefined();
  });

  it("adds the PV protection finalizer once, first or after the ones given", async () => {
    const pv = (finalizers: string) => `apiVersion: v1
kind: PersistentVolume
metadata: {name: g-pv-x${finalizers}}
spec: {capacity: {storage: 1Gi}, accessModes: [ReadWriteOnce], hostPath: {path: /tmp/x}}
`;
    const plain = normalized(
      await s.kubectl("create", "-f", s.file("pv.yaml", pv("")), "--dry-run=server", "-o", "json"),
    );
    expect(plain.metadata.finalizers).toEqual(["kubernetes.io/pv-protection"]);
    const given = normalized(
      await s.kubectl(
        "create",
        "-f",
        s.file("pv2.yaml", pv(", finalizers: [kubernetes.io/pv-protection, a.com/b]")),
        "--dry-run=server",
        "-o",
        "json",
      ),
    );
    expect(given.metadata.finalizers).toEqual(["kubernetes.io/pv-protection", "a.com/b"]);
    const claimFinalizers = normalized(
      await s.kubectl(
        "create",
        "-f",
        s.file(
          "pvc-f.yaml",
          claim("g-c-x", '  storageClassName: ""\n').replace(
            "namespace: g-ns1",
            "namespace: g-ns1\n  finalizers: [a.com/b]",
          ),
        ),
        "--dry-run=server",
        "-o",
        "json",
      ),
    ).metadata.finalizers;
    expect(claimFinalizers).toEqual(["a.com/b", "kubernetes.io/pvc-protection"]);
    const vac = `apiVersion: storage.k8s.io/v1
kind: VolumeAttributesClass
metadata: {name: g-vac}
driverName: example.com/none
parameters: {a: b}
`;
    expect(
      normalized(await s.kubectl("create", "-f", s.file("vac.yaml", vac), "--dry-run=server", "-o", "json")).metadata
        .finalizers,
    ).toEqual(["kubernetes.io/vac-protection"]);
  });

  it("lets a bound claim grow only when its StorageClass allows expansion", async () => {
    // Bound as kube's PV controller binds a claim to the volume it names.
    for (const c of ["old", "new"]) {
      await s.kubectl(
        "create",
        "-f",
        s.file(`bound-${c}.yaml`, claim(`g-bound-${c}`, `  storageClassName: g-${c}\n  volumeName: g-pv-${c}\n`)),
      );
      await s.kubectl(
        "patch",
        "pvc",
        "-n",
        "g-ns1",
        `g-bound-${c}`,
        "--subresource=status",
        "--type=merge",
        "-p",
        '{"status":{"phase":"Bound","capacity":{"storage":"1Gi"},"accessModes":["ReadWriteOnce"]}}',
      );
    }
    const grow = (name: string, size: string) =>
      s.server.request({
        method: "PATCH",
        path: `/api/v1/namespaces/g-ns1/persistentvolumeclaims/${name}`,
        headers: { "content-type": "application/merge-patch+json" },
        body: JSON.stringify({ spec: { resources: { requests: { storage: size } } } }),
      });
    const refused = await grow("g-bound-new", "2Gi");
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message:
        'persistentvolumeclaims "g-bound-new" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize',
      reason: "Forbidden",
      details: { name: "g-bound-new", kind: "persistentvolumeclaims" },
      code: 403,
    });
    expect(
      await s.kubectlError(
        "patch",
        "pvc",
        "-n",
        "g-ns1",
        "g-bound-new",
        "-p",
        '{"spec":{"resources":{"requests":{"storage":"3Gi"}}}}',
      ),
    ).toBe(
      'Error from server (Forbidden): persistentvolumeclaims "g-bound-new" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize\n',
    );
    const allowed = await grow("g-bound-old", "2Gi");
    expect(allowed.status).toBe(200);
    // Shrinking back is validation's business, not the plugin's; an equal size passes the plugin.
    expect((await grow("g-bound-old", "2Gi")).status).toBe(200);
  });
});
