import { describe, expect, it } from "vitest";
import { forbiddenLabels, modifiedLabels } from "../../../../runtime/admission/node-restriction/node-labels.js";
import { podApiReference } from "../../../../runtime/admission/node-restriction/pod-api-references.js";

describe("node labels", () => {
  it("finds added, removed and changed keys", () => {
    expect(modifiedLabels({ a: "1", b: "2", c: "3" }, { a: "1", b: "x", d: "4" }).sort()).toEqual(["b", "c", "d"]);
  });

  it("allows the kubelet's labels and namespaces, and no node roles (upstream kube; the reference build's OpenShift exception aside)", () => {
    const keys = [
      "kubernetes.io/hostname",
      "topology.kubernetes.io/zone",
      "x.kubelet.kubernetes.io/a",
      "node.kubernetes.io/instance-type",
      "example.com/a",
      "node-role.kubernetes.io/worker",
      "node-restriction.kubernetes.io/a",
      "a.node-restriction.kubernetes.io/b",
      "k8s.io/a",
    ];
    expect(forbiddenLabels(keys)).toEqual([
      "a.node-restriction.kubernetes.io/b",
      "k8s.io/a",
      "node-restriction.kubernetes.io/a",
      "node-role.kubernetes.io/worker",
    ]);
  });
});

describe("pod API references", () => {
  const pod = (spec: Record<string, unknown>) => ({ metadata: { name: "p" }, spec });
  it("names the first kind of API object a pod refers to, in kube's order and words", () => {
    expect(podApiReference(pod({ containers: [{ name: "c" }] }))).toBeUndefined();
    expect(podApiReference(pod({ serviceAccountName: "sa", volumes: [{ name: "v", secret: {} }] }))).toBe(
      "serviceaccounts",
    );
    expect(podApiReference(pod({ volumes: [{ name: "v", secret: { secretName: "s" } }] }))).toBe("secrets");
    expect(
      podApiReference(
        pod({
          volumes: [
            { name: "v", hostPath: { path: "/" } },
            { name: "w", csi: {} },
          ],
        }),
      ),
    ).toBe("csidrivers (via CSI volumes)");
    expect(
      podApiReference(
        pod({ volumes: [{ name: "v", projected: { sources: [{ serviceAccountToken: { path: "t" } }] } }] }),
      ),
    ).toBe("serviceaccounts (via projected volumes)");
    expect(podApiReference(pod({ resourceClaims: [{ name: "r" }] }))).toBe("resourceclaims");
    expect(() => podApiReference(pod({ volumes: [{ name: "v" }] }))).toThrow('unknown volume type for volume  "v"');
  });
});
