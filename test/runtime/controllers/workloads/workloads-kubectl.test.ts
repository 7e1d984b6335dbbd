// kubectl against the workload controllers, compared with kube-apiserver v1.36.2 and kube-controller-manager on
// a cluster without nodes: `create deployment` gives one ReplicaSet `web-<hash>` and Pending pods, `scale`
// resizes the ReplicaSet (its annotations follow), `rollout status` keeps waiting as no pod becomes
// available, and `delete --cascade=orphan` leaves the ReplicaSet without its owner reference.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { haveKubectl, type KubectlSession, startKubectlSession } from "../../../e2e/kubectl-session.js";
import { eventually } from "../controller-harness.js";

describe.skipIf(!haveKubectl)("workload controllers through kubectl", () => {
  let session: KubectlSession;
  const kubectl = (...args: string[]) => session.kubectl("-n", "h-kubectl", ...args);
  const replicaSets = async () =>
    JSON.parse(await kubectl("get", "rs", "-o", "json")).items as {
      metadata: { name: string; annotations?: Record<string, string>; ownerReferences?: unknown[] };
      spec: { replicas: number };
      status: Record<string, number>;
    }[];

  beforeAll(async () => {
    session = await startKubectlSession();
    await session.kubectl("create", "namespace", "h-kubectl");
  });
  afterAll(() => session.close());

  it("create deployment, get rs,pods, scale, rollout status, delete --cascade=orphan", async () => {
    expect(await kubectl("create", "deployment", "web", "--image=nginx", "--replicas=2")).toBe(
      "deployment.apps/web created\n",
    );
    const rs = await eventually(async () => {
      const sets = await replicaSets();
      expect(sets.map((s) => s.status.replicas)).toEqual([2]);
      return sets[0] as Awaited<ReturnType<typeof replicaSets>>[number];
    });
    const pods = await kubectl(
      "get",
      "pods",
      "-o",
      "custom-columns=NAME:.metadata.name,STATUS:.status.phase",
      "--no-headers",
    );
    const lines = pods.trim().split("\n");
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line).toMatch(new RegExp(`^${rs.metadata.name}-[a-z0-9]{5}\\s+Pending$`));

    expect(await kubectl("scale", "deployment", "web", "--replicas=3")).toBe("deployment.apps/web scaled\n");
    await eventually(async () => {
      const [scaled] = await replicaSets();
      expect(scaled?.spec.replicas).toBe(3);
      expect(scaled?.metadata.annotations).toEqual({
        "deployment.kubernetes.io/desired-replicas": "3",
        "deployment.kubernetes.io/max-replicas": "4",
        "deployment.kubernetes.io/revision": "1",
      });
      expect(scaled?.status).toEqual({
        fullyLabeledReplicas: 3,
        observedGeneration: 2,
        replicas: 3,
        terminatingReplicas: 0,
      });
    });

    const rollout = await session
      .kubectlWith({}, "-n", "h-kubectl", "rollout", "status", "deployment/web", "--timeout=1s")
      .then(
        () => "finished",
        (error: { stdout: string; stderr: string }) => `${error.stdout}${error.stderr}`,
      );
    expect(rollout).toContain(
      'Waiting for deployment "web" rollout to finish: 0 of 3 updated replicas are available...',
    );
    expect(rollout).toContain("error: timed out waiting for the condition");

    expect(await kubectl("delete", "deployment", "web", "--cascade=orphan")).toBe('deployment.apps "web" deleted\n');
    await eventually(async () => {
      const [orphaned] = await replicaSets();
      expect(orphaned?.metadata.name).toBe(rs.metadata.name);
      expect(orphaned?.metadata.ownerReferences).toBeUndefined();
    });
    expect((await replicaSets())[0]?.spec.replicas).toBe(3);
  });
});
