// The workload controllers over HTTP, against what kube-apiserver v1.36.2 with kube-controller-manager answers
// for the same requests on a cluster without nodes (recorded; uids, times and random name parts normalized):
// a Deployment's ReplicaSet and pods, a ReplicationController scaled down, orphans adopted, a Job completing
// when its pod succeeds, and the events each controller records.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../../../runtime/index.js";
import { jsonCaller } from "../../json-caller.js";
import { eventually } from "../controller-harness.js";

const token = "workloads-token";
const namespace = "h-work";
const core = `/api/v1/namespaces/${namespace}`;
const apps = `/apis/apps/v1/namespaces/${namespace}`;
const batch = `/apis/batch/v1/namespaces/${namespace}`;
const hashPattern = /^[bcdfghjklmnpqrstvwxz2456789]{1,10}$/;

type Json = Record<string, unknown>;
interface Item {
  metadata: {
    name: string;
    uid: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    [k: string]: unknown;
  };
  spec?: Json;
  status?: Json;
  [k: string]: unknown;
}

const podSpec = { containers: [{ name: "c", image: "nginx" }] };

describe("workload controllers", () => {
  let server: RunningServer;
  const call = jsonCaller(() => server.url, token);

  async function create(path: string, body: Json): Promise<Item> {
    const answer = await call("POST", path, body);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body as unknown as Item;
  }
  const get = async (path: string) => (await call("GET", path)).body as unknown as Item;
  const list = async (path: string) => ((await call("GET", path)).body as { items: Item[] }).items;
  const events = async (name: string) =>
    (await list(`${core}/events?fieldSelector=involvedObject.name=${name}`)).map((e) => [
      e.reason,
      e.message,
      e.type,
      (e.source as Json).component,
    ]);

  beforeAll(async () => {
    server = await startServer({ insecure: true, adminToken: token });
    await create("/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: namespace } });
  });
  afterAll(() => server.close());

  it("gives a Deployment a ReplicaSet named by its template hash, and the ReplicaSet its pods", async () => {
    const deployment = await create(`${apps}/deployments`, {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "web", labels: { app: "web" } },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: "web" } },
        template: { metadata: { labels: { app: "web" } }, spec: podSpec },
      },
    });
    const rs = await eventually(async () => {
      const found = await list(`${apps}/replicasets`);
      expect(found).toHaveLength(1);
      expect(found[0]?.status?.replicas).toBe(2);
      return found[0] as Item;
    });
    const hash = rs.metadata.labels?.["pod-template-hash"] ?? "";
    expect(hash).toMatch(hashPattern);
    expect(rs.metadata.name).toBe(`web-${hash}`);
    expect(rs.metadata.annotations).toEqual({
      "deployment.kubernetes.io/desired-replicas": "2",
      "deployment.kubernetes.io/max-replicas": "3",
      "deployment.kubernetes.io/revision": "1",
    });
    expect(rs.metadata.ownerReferences).toEqual([
      {
        apiVersion: "apps/v1",
        kind: "Deployment",
        name: "web",
        uid: deployment.metadata.uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    expect((rs.spec as { selector: Json }).selector.matchLabels).toEqual({ app: "web", "pod-template-hash": hash });
    expect(rs.status).toEqual({ fullyLabeledReplicas: 2, observedGeneration: 1, replicas: 2, terminatingReplicas: 0 });
    const pods = await list(`${core}/pods?labelSelector=app=web`);
    expect(pods).toHaveLength(2);
    for (const pod of pods) {
      expect(pod.metadata.generateName).toBe(`web-${hash}-`);
      expect(pod.metadata.labels).toEqual({ app: "web", "pod-template-hash": hash });
      expect(pod.metadata.ownerReferences).toEqual([
        {
          apiVersion: "apps/v1",
          kind: "ReplicaSet",
          name: rs.metadata.name,
          uid: rs.metadata.uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ]);
    }
    const status = await eventually(async () => {
      const current = (await get(`${apps}/deployments/web`)).status as Json;
      expect((current.conditions as Json[]).map((c) => c.reason)).toEqual([
        "MinimumReplicasUnavailable",
        "ReplicaSetUpdated",
      ]);
      return current;
    });
    const time = expect.any(String);
    expect(status).toEqual({
      conditions: [
        {
          lastTransitionTime: time,
          lastUpdateTime: time,
          message: "Deployment does not have minimum availability.",
          reason: "MinimumReplicasUnavailable",
          status: "False",
          type: "Available",
        },
        {
          lastTransitionTime: time,
          lastUpdateTime: time,
          message: `ReplicaSet "web-${hash}" is progressing.`,
          reason: "ReplicaSetUpdated",
          status: "True",
          type: "Progressing",
        },
      ],
      observedGeneration: 1,
      replicas: 2,
      terminatingReplicas: 0,
      unavailableReplicas: 2,
      updatedReplicas: 2,
    });
    expect((await get(`${apps}/deployments/web`)).metadata.annotations).toEqual({
      "deployment.kubernetes.io/revision": "1",
    });
    await eventually(async () =>
      expect(await events("web")).toEqual([
        ["ScalingReplicaSet", `Scaled up replica set web-${hash} from 0 to 2`, "Normal", "deployment-controller"],
      ]),
    );
    await eventually(async () =>
      expect(
        (await events(rs.metadata.name)).map((e) => [e[0], String(e[1]).replace(/-[a-z0-9]{5}$/, "-x"), e[3]]),
      ).toEqual([
        ["SuccessfulCreate", `Created pod: web-${hash}-x`, "replicaset-controller"],
        ["SuccessfulCreate", `Created pod: web-${hash}-x`, "replicaset-controller"],
      ]),
    );
  });

  it("rolls a changed template out within maxSurge: without kubelets the old ReplicaSet stays", async () => {
    await call(
      "PATCH",
      `${apps}/deployments/web`,
      { spec: { template: { spec: { containers: [{ name: "c", image: "nginx:2" }] } } } },
      "application/strategic-merge-patch+json",
    );
    await eventually(async () => {
      const sets = await list(`${apps}/replicasets`);
      expect(
        sets.map((rs) => [rs.metadata.annotations?.["deployment.kubernetes.io/revision"], rs.spec?.replicas]).sort(),
      ).toEqual([
        ["1", 2],
        ["2", 1],
      ]);
    });
    await eventually(async () => {
      const status = (await get(`${apps}/deployments/web`)).status as Json;
      expect([status.replicas, status.updatedReplicas, status.unavailableReplicas]).toEqual([3, 1, 3]);
    });
  });

  it("keeps a ReplicationController's replicas, adopting orphans and deleting the surplus", async () => {
    await create(`${core}/pods`, {
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name: "orphan", labels: { app: "rc" } },
      spec: podSpec,
    });
    const rc = await create(`${core}/replicationcontrollers`, {
      apiVersion: "v1",
      kind: "ReplicationController",
      metadata: { name: "rc" },
      spec: { replicas: 2, selector: { app: "rc" }, template: { metadata: { labels: { app: "rc" } }, spec: podSpec } },
    });
    await eventually(async () =>
      expect((await get(`${core}/replicationcontrollers/rc`)).status).toEqual({
        fullyLabeledReplicas: 2,
        observedGeneration: 1,
        replicas: 2,
      }),
    );
    const orphan = await get(`${core}/pods/orphan`);
    expect(orphan.metadata.ownerReferences).toEqual([
      {
        apiVersion: "v1",
        kind: "ReplicationController",
        name: "rc",
        uid: rc.metadata.uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    await call("PATCH", `${core}/replicationcontrollers/rc`, { spec: { replicas: 1 } }, "application/merge-patch+json");
    await eventually(async () => expect(await list(`${core}/pods?labelSelector=app=rc`)).toHaveLength(1));
    await eventually(async () => {
      const recorded = (await events("rc")).map((e) => [e[0], String(e[1]).replace(/rc-[a-z0-9]{5}$/, "rc-x"), e[3]]);
      expect(recorded).toEqual([
        ["SuccessfulCreate", "Created pod: rc-x", "replication-controller"],
        ["SuccessfulDelete", expect.stringMatching(/^Deleted pod: (rc-x|orphan)$/), "replication-controller"],
      ]);
    });
  });

  it("runs a Job's pod with the tracking finalizer and completes it when the pod succeeds", async () => {
    const job = await create(`${batch}/jobs`, {
      apiVersion: "batch/v1",
      kind: "Job",
      metadata: { name: "j1" },
      spec: { template: { spec: { restartPolicy: "Never", containers: [{ name: "c", image: "busybox" }] } } },
    });
    const uid = job.metadata.uid;
    const pod = await eventually(async () => {
      const found = await list(`${core}/pods?labelSelector=job-name=j1`);
      expect(found).toHaveLength(1);
      return found[0] as Item;
    });
    expect(pod.metadata.finalizers).toEqual(["batch.kubernetes.io/job-tracking"]);
    expect(pod.metadata.generateName).toBe("j1-");
    expect(pod.metadata.labels).toEqual({
      "batch.kubernetes.io/controller-uid": uid,
      "batch.kubernetes.io/job-name": "j1",
      "controller-uid": uid,
      "job-name": "j1",
    });
    await eventually(async () =>
      expect((await get(`${batch}/jobs/j1`)).status).toEqual({
        active: 1,
        ready: 0,
        startTime: expect.any(String),
        terminating: 0,
        uncountedTerminatedPods: {},
      }),
    );
    await call(
      "PATCH",
      `${core}/pods/${pod.metadata.name}/status`,
      { status: { phase: "Succeeded" } },
      "application/merge-patch+json",
    );
    const condition = (type: string) => ({
      lastProbeTime: expect.any(String),
      lastTransitionTime: expect.any(String),
      message: "Reached expected number of succeeded pods",
      reason: "CompletionsReached",
      status: "True",
      type,
    });
    await eventually(async () =>
      expect((await get(`${batch}/jobs/j1`)).status).toEqual({
        completionTime: expect.any(String),
        conditions: [condition("SuccessCriteriaMet"), condition("Complete")],
        ready: 0,
        startTime: expect.any(String),
        succeeded: 1,
        terminating: 0,
        uncountedTerminatedPods: {},
      }),
    );
    expect((await get(`${core}/pods/${pod.metadata.name}`)).metadata.finalizers).toBeUndefined();
    await eventually(async () =>
      expect((await events("j1")).map((e) => [e[0], String(e[1]).replace(/j1-[a-z0-9]{5}$/, "j1-x")])).toEqual([
        ["SuccessfulCreate", "Created pod: j1-x"],
        ["Completed", "Job completed"],
      ]),
    );
  });

  it("fails a Job past its activeDeadlineSeconds, deleting its pods", async () => {
    await create(`${batch}/jobs`, {
      apiVersion: "batch/v1",
      kind: "Job",
      metadata: { name: "j2" },
      spec: {
        activeDeadlineSeconds: 1,
        template: { spec: { restartPolicy: "Never", containers: [{ name: "c", image: "busybox" }] } },
      },
    });
    await eventually(async () => {
      const status = (await get(`${batch}/jobs/j2`)).status as Json;
      expect((status.conditions as Json[] | undefined)?.map((c) => [c.type, c.reason])).toEqual([
        ["FailureTarget", "DeadlineExceeded"],
        ["Failed", "DeadlineExceeded"],
      ]);
      expect(status.failed).toBe(1);
    }, 10_000);
    await eventually(async () => expect(await list(`${core}/pods?labelSelector=job-name=j2`)).toHaveLength(0));
  });
});
