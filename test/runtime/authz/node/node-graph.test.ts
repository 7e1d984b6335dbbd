import { describe, expect, it } from "vitest";
import { NodeGraph } from "../../../../runtime/authz/node/node-graph.js";
import {
  persistentVolumeSecrets,
  podClaimNames,
  podConfigMapNames,
  podResourceClaimNames,
  podSecretNames,
} from "../../../../runtime/authz/node/object-references.js";
import { persistentVolume, pod } from "./node-fixtures.js";

const rich = pod(
  "ns",
  "web",
  "n1",
  {
    serviceAccountName: "runner",
    imagePullSecrets: [{ name: "pull" }, { name: "" }],
    initContainers: [{ name: "i", image: "x", envFrom: [{ secretRef: { name: "init-env" } }] }],
    containers: [
      {
        name: "c",
        image: "x",
        env: [
          { name: "A", valueFrom: { secretKeyRef: { name: "env-secret", key: "k" } } },
          { name: "B", valueFrom: { configMapKeyRef: { name: "env-cm", key: "k" } } },
          { name: "C", value: "plain" },
        ],
        envFrom: [{ configMapRef: { name: "from-cm" } }],
      },
    ],
    ephemeralContainers: [{ name: "e", image: "x", envFrom: [{ secretRef: { name: "debug-env" } }] }],
    volumes: [
      { name: "s", secret: { secretName: "vol-secret" } },
      { name: "m", configMap: { name: "vol-cm" } },
      {
        name: "p",
        projected: { sources: [{ secret: { name: "proj-secret" } }, { configMap: { name: "proj-cm" } }] },
      },
      { name: "csi", csi: { driver: "d", nodePublishSecretRef: { name: "csi-secret" } } },
      { name: "rbd", rbd: { monitors: ["m"], image: "i", secretRef: { name: "rbd-secret" } } },
      { name: "data", persistentVolumeClaim: { claimName: "data-claim" } },
      { name: "scratch", ephemeral: { volumeClaimTemplate: { spec: {} } } },
    ],
    resourceClaims: [
      { name: "gpu", resourceClaimName: "shared-gpu" },
      { name: "tpl", resourceClaimTemplateName: "t" },
      { name: "pending", resourceClaimTemplateName: "t" },
    ],
  },
  {
    status: {
      resourceClaimStatuses: [{ name: "tpl", resourceClaimName: "web-tpl-abc" }],
      extendedResourceClaimStatus: { resourceClaimName: "web-extended" },
    },
  },
);

describe("object references", () => {
  it("finds the secrets, configmaps and claims a pod names", () => {
    expect(podSecretNames(rich).sort()).toEqual(
      ["csi-secret", "debug-env", "env-secret", "init-env", "proj-secret", "pull", "rbd-secret", "vol-secret"].sort(),
    );
    expect(podConfigMapNames(rich).sort()).toEqual(["env-cm", "from-cm", "proj-cm", "vol-cm"]);
    expect(podClaimNames(rich)).toEqual(["data-claim", "web-scratch"]);
    expect(podResourceClaimNames(rich)).toEqual(["shared-gpu", "web-tpl-abc", "web-extended"]);
  });

  it("finds a PV's secrets in their namespace or the claim's, marking controller-only ones", () => {
    const claim = { namespace: "ns", name: "c" };
    expect(persistentVolumeSecrets(persistentVolume("pv", claim, { rbd: { secretRef: { name: "s" } } }))).toEqual([
      { namespace: "ns", name: "s", kubeletVisible: true },
    ]);
    expect(
      persistentVolumeSecrets(
        persistentVolume("pv", claim, { cephfs: { secretRef: { name: "s", namespace: "other" } } }),
      ),
    ).toEqual([{ namespace: "other", name: "s", kubeletVisible: true }]);
    expect(
      persistentVolumeSecrets(
        persistentVolume("pv", claim, {
          csi: {
            driver: "d",
            controllerPublishSecretRef: { name: "ctrl", namespace: "sys" },
            nodeStageSecretRef: { name: "stage", namespace: "sys" },
          },
        }),
      ),
    ).toEqual([
      { namespace: "sys", name: "ctrl", kubeletVisible: false },
      { namespace: "sys", name: "stage", kubeletVisible: true },
    ]);
    expect(persistentVolumeSecrets(persistentVolume("pv", claim, { azureFile: { secretName: "az" } }))).toEqual([
      { namespace: "ns", name: "az", kubeletVisible: true },
    ]);
  });
});

describe("NodeGraph", () => {
  it("relates a bound pod's objects to its node only", () => {
    const g = new NodeGraph();
    g.addPod(rich);
    g.addPod(pod("ns", "other", "n2", { volumes: [{ name: "s", secret: { secretName: "vol-secret" } }] }));
    expect(g.hasPathFrom("n1", "secret", "ns", "pull")).toBe(true);
    expect(g.hasPathFrom("n1", "configmap", "ns", "proj-cm")).toBe(true);
    expect(g.hasPathFrom("n1", "serviceaccount", "ns", "runner")).toBe(true);
    expect(g.hasPathFrom("n1", "pvc", "ns", "web-scratch")).toBe(true);
    expect(g.hasPathFrom("n1", "resourceclaim", "ns", "web-tpl-abc")).toBe(true);
    expect(g.hasPathFrom("n1", "pod", "ns", "web")).toBe(true);
    // Shared secret: both nodes; a secret of n1's pod is not n2's.
    expect(g.hasPathFrom("n2", "secret", "ns", "vol-secret")).toBe(true);
    expect(g.hasPathFrom("n2", "secret", "ns", "pull")).toBe(false);
    expect(g.hasPathFrom("n1", "secret", "other-ns", "pull")).toBe(false);
    expect(g.hasPathFrom("n3", "secret", "ns", "pull")).toBe(false);
  });

  it("follows pv → pvc → pod → node, and a PV's kubelet-visible secrets", () => {
    const g = new NodeGraph();
    g.addPersistentVolume(
      persistentVolume(
        "pv1",
        { namespace: "ns", name: "data-claim" },
        {
          csi: {
            driver: "d",
            nodePublishSecretRef: { name: "publish", namespace: "ns" },
            controllerExpandSecretRef: { name: "expand", namespace: "ns" },
          },
        },
      ),
    );
    expect(g.hasPathFrom("n1", "pv", "", "pv1")).toBe(false);
    g.addPod(rich);
    expect(g.hasPathFrom("n1", "pv", "", "pv1")).toBe(true);
    expect(g.hasPathFrom("n1", "secret", "ns", "publish")).toBe(true);
    expect(g.hasPathFrom("n1", "secret", "ns", "expand")).toBe(false);
    g.deletePersistentVolume("pv1");
    expect(g.hasPathFrom("n1", "secret", "ns", "publish")).toBe(false);
  });

  it("gives mirror pods nothing beyond themselves and forgets deleted or changed pods", () => {
    const g = new NodeGraph();
    g.addPod(
      pod(
        "ns",
        "mirror",
        "n1",
        { serviceAccountName: "sa", volumes: [{ name: "s", secret: { secretName: "x" } }] },
        {
          annotations: { "kubernetes.io/config.mirror": "hash" },
        },
      ),
    );
    expect(g.hasPathFrom("n1", "pod", "ns", "mirror")).toBe(true);
    expect(g.hasPathFrom("n1", "secret", "ns", "x")).toBe(false);
    g.addPod(pod("ns", "p", "n1", { volumes: [{ name: "s", secret: { secretName: "old" } }] }));
    g.addPod(pod("ns", "p", "n1", { volumes: [{ name: "s", secret: { secretName: "new" } }] }));
    expect(g.hasPathFrom("n1", "secret", "ns", "old")).toBe(false);
    expect(g.hasPathFrom("n1", "secret", "ns", "new")).toBe(true);
    g.deletePod("ns", "p");
    g.deletePod("ns", "mirror");
    expect(g.hasPathFrom("n1", "secret", "ns", "new")).toBe(false);
    expect(g.size).toBe(0);
  });

  it("ignores unbound pods; node-local objects point at their node", () => {
    const g = new NodeGraph();
    g.addPod(pod("ns", "pending", "", { volumes: [{ name: "s", secret: { secretName: "x" } }] }));
    expect(g.size).toBe(0);
    g.addNodeLocal("volumeattachment", "va1", "n1");
    g.addNodeLocal("resourceslice", "slice", "n2");
    expect(g.hasPathFrom("n1", "volumeattachment", "", "va1")).toBe(true);
    expect(g.hasPathFrom("n1", "resourceslice", "", "slice")).toBe(false);
    g.addNodeLocal("volumeattachment", "va1", "n2");
    expect(g.hasPathFrom("n1", "volumeattachment", "", "va1")).toBe(false);
    g.deleteNodeLocal("volumeattachment", "va1");
    g.deleteNodeLocal("resourceslice", "slice");
    expect(g.size).toBe(0);
  });
});
