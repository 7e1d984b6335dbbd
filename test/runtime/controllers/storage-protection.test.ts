// The persistentvolumeclaim-, persistentvolume- and volumeattributesclass-protection controllers, with
// kubectl: deletes of unused objects complete, a claim used by a scheduled pod (even a finished one, as in
// kube-controller-manager v1.36.2) waits for the pod, a Bound volume waits until it is not Bound, a class
// named by a claim waits for the claim. The reference answered these same steps alike.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseControllers } from "../../../runtime/controllers/controller-selection.js";
import { haveKubectl, type KubectlSession, startKubectlSession } from "../../e2e/kubectl-session.js";
import { eventually } from "./controller-harness.js";

const claim = (name: string, extra = "") => `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: ${name}, namespace: g-ns1}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
${extra}`;

const pod = (name: string, claimName: string, nodeName?: string) => `apiVersion: v1
kind: Pod
metadata: {name: ${name}, namespace: g-ns1}
spec:
${nodeName === undefined ? "" : `  nodeName: ${nodeName}\n`}  containers: [{name: c, image: busybox}]
  volumes: [{name: v, persistentVolumeClaim: {claimName: ${claimName}}}]
`;

describe("protection controller names", () => {
  it("answers to KCM's names and aliases", () => {
    expect(parseControllers("*,-pvc-protection,-pv-protection,-volumeattributesclass-protection-controller")).toEqual([
      "*",
      "-persistentvolumeclaim-protection-controller",
      "-persistentvolume-protection-controller",
      "-volumeattributesclass-protection-controller",
    ]);
  });
});

describe.skipIf(!haveKubectl)("storage protection controllers", () => {
  let s: KubectlSession;
  beforeAll(async () => {
    s = await startKubectlSession();
    await s.kubectl("create", "namespace", "g-ns1");
    await eventually(async () =>
      expect(await s.kubectl("get", "sa", "-n", "g-ns1", "default", "-o", "name")).toBe("serviceaccount/default\n"),
    );
  });
  afterAll(() => s?.close());

  const claimState = (name: string) =>
    s.kubectl(
      "get",
      "pvc",
      "-n",
      "g-ns1",
      name,
      "--ignore-not-found",
      "-o",
      "jsonpath={.metadata.finalizers} {.metadata.deletionTimestamp}",
    );

  it("lets an unused claim go at once, also one only an unscheduled pod names", async () => {
    await s.kubectl("create", "-f", s.file("pvc.yaml", claim("g-claim")));
    expect(await s.kubectl("delete", "pvc", "-n", "g-ns1", "g-claim", "--timeout=20s")).toBe(
      'persistentvolumeclaim "g-claim" deleted\n',
    );
    await s.kubectl(
      "create",
      "-f",
      s.file("unsched.yaml", claim("g-claim-unsched") + "---\n" + pod("g-pod-unsched", "g-claim-unsched")),
    );
    expect(await s.kubectl("delete", "pvc", "-n", "g-ns1", "g-claim-unsched", "--timeout=20s")).toBe(
      'persistentvolumeclaim "g-claim-unsched" deleted\n',
    );
  });

  it("keeps a claim a scheduled pod uses until the pod is gone", async () => {
    await s.kubectl(
      "create",
      "-f",
      s.file("sched.yaml", claim("g-claim-sched") + "---\n" + pod("g-pod-sched", "g-claim-sched", "g-node-x")),
    );
    await s.kubectl("delete", "pvc", "-n", "g-ns1", "g-claim-sched", "--wait=false");
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await claimState("g-claim-sched")).toMatch(/^\["kubernetes.io\/pvc-protection"\] \d{4}-/);
    // A finished pod on a node still holds it, as kube's controller sees it.
    await s.kubectl(
      "patch",
      "pod",
      "-n",
      "g-ns1",
      "g-pod-sched",
      "--subresource=status",
      "--type=merge",
      "-p",
      '{"status":{"phase":"Succeeded"}}',
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await claimState("g-claim-sched")).toMatch(/^\["kubernetes.io\/pvc-protection"\] /);
    await s.kubectl("delete", "pod", "-n", "g-ns1", "g-pod-sched", "--grace-period=0", "--force");
    await eventually(async () => expect(await claimState("g-claim-sched")).toBe(""));
  });

  it("puts the finalizer back on a claim that lost it", async () => {
    await s.kubectl("create", "-f", s.file("pvc-f.yaml", claim("g-claim-f")));
    await s.kubectl(
      "patch",
      "pvc",
      "-n",
      "g-ns1",
      "g-claim-f",
      "--type=json",
      "-p",
      '[{"op":"remove","path":"/metadata/finalizers"}]',
    );
    await eventually(async () => expect(await claimState("g-claim-f")).toBe('["kubernetes.io/pvc-protection"] '));
  });

  it("keeps a Bound volume until it is no longer Bound", async () => {
    const pv = `apiVersion: v1
kind: PersistentVolume
metadata: {name: g-pv}
spec: {capacity: {storage: 1Gi}, accessModes: [ReadWriteOnce], hostPath: {path: /tmp/g}}
`;
    await s.kubectl("create", "-f", s.file("pv.yaml", pv));
    await s.kubectl(
      "patch",
      "pv",
      "g-pv",
      "--subresource=status",
      "--type=merge",
      "-p",
      '{"status":{"phase":"Bound"}}',
    );
    await s.kubectl("delete", "pv", "g-pv", "--wait=false");
    await new Promise((resolve) => setTimeout(resolve, 500));
    const state = () =>
      s.kubectl("get", "pv", "g-pv", "--ignore-not-found", "-o", "jsonpath={.metadata.finalizers} {.status.phase}");
    expect(await state()).toBe('["kubernetes.io/pv-protection"] Bound');
    await s.kubectl(
      "patch",
      "pv",
      "g-pv",
      "--subresource=status",
      "--type=merge",
      "-p",
      '{"status":{"phase":"Released"}}',
    );
    await eventually(async () => expect(await state()).toBe(""));
    await s.kubectl("create", "-f", s.file("pv2.yaml", pv.replace("g-pv}", "g-pv2}")));
    expect(await s.kubectl("delete", "pv", "g-pv2", "--timeout=20s")).toBe('persistentvolume "g-pv2" deleted\n');
  });

  it("keeps a VolumeAttributesClass a claim names until the claim is gone", async () => {
    const vac = (name: string) => `apiVersion: storage.k8s.io/v1
kind: VolumeAttributesClass
metadata: {name: ${name}}
driverName: example.com/none
parameters: {a: b}
`;
    await s.kubectl("create", "-f", s.file("vac.yaml", vac("g-vac")));
    expect(await s.kubectl("delete", "vac", "g-vac", "--timeout=20s")).toBe(
      'volumeattributesclass.storage.k8s.io "g-vac" deleted\n',
    );
    await s.kubectl(
      "create",
      "-f",
      s.file("vac2.yaml", `${vac("g-vac2")}---\n${claim("g-claim-vac", "  volumeAttributesClassName: g-vac2\n")}`),
    );
    await s.kubectl("delete", "vac", "g-vac2", "--wait=false");
    await new Promise((resolve) => setTimeout(resolve, 500));
    const state = () =>
      s.kubectl("get", "vac", "g-vac2", "--ignore-not-found", "-o", "jsonpath={.metadata.finalizers}");
    expect(await state()).toBe('["kubernetes.io/vac-protection"]');
    await s.kubectl("delete", "pvc", "-n", "g-ns1", "g-claim-vac", "--timeout=20s");
    await eventually(async () => expect(await state()).toBe(""));
  });
});
