// The disruption controller over HTTP: the status it keeps for each PodDisruptionBudget, as kube's
// disruption controller (pkg/controller/disruption) computes it: healthy pods, the budget's desired count
// from minAvailable/maxUnavailable (percentages rounded up against the scale of the pods' controllers),
// SyncFailed when a pod's controller cannot be found, and stale DisruptionTarget conditions set back.
// kube-apiserver v1.36.2 agrees on what it can show without a controller manager: the status it answers for
// a new budget (all zeros), which kapi's controller keeps when a sync fails.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../../runtime/index.js";
import { jsonCaller } from "../json-caller.js";
import { eventually } from "./controller-harness.js";

const token = "disruption-controller-token";
const namespace = "b-pdbs";
const ns = `/api/v1/namespaces/${namespace}`;
const apps = `/apis/apps/v1/namespaces/${namespace}`;
const budgetsPath = `/apis/policy/v1/namespaces/${namespace}/poddisruptionbudgets`;

type Json = Record<string, unknown>;

const template = (app: string) => ({
  metadata: { labels: { app } },
  spec: { containers: [{ name: "c", image: "busybox" }] },
});

function condition(status: "True" | "False", reason: string, observedGeneration?: number, message = ""): Json {
  return {
    type: "DisruptionAllowed",
    status,
    ...(observedGeneration === undefined ? {} : { observedGeneration }),
    lastTransitionTime: expect.any(String),
    reason,
    message,
  };
}

describe("disruption controller", () => {
  let server: RunningServer;

  const call = jsonCaller(() => server.url, token);

  async function create(path: string, body: Json): Promise<Json> {
    const created = await call("POST", path, body);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body as Json;
  }

  const uidOf = (obj: Json) => (obj.metadata as { uid: string }).uid;

  /** A Running pod, its Ready condition as given, owned by `owner` when given. */
  async function pod(name: string, app: string, options: { ready?: boolean; owner?: Json; ns?: string } = {}) {
    const base = `/api/v1/namespaces/${options.ns ?? namespace}/pods`;
    await create(base, {
      apiVersion: "v1",
      kind: "Pod",
      metadata: {
        name,
        labels: { app },
        ...(options.owner === undefined ? {} : { ownerReferences: [{ ...options.owner, controller: true }] }),
      },
      spec: { nodeName: "b-node", containers: [{ name: "c", image: "busybox" }] },
    });
    const status = {
      phase: "Running",
      conditions: [{ type: "Ready", status: options.ready === false ? "False" : "True" }],
    };
    await call("PATCH", `${base}/${name}/status`, { status }, "application/merge-patch+json");
  }

  const ownerRef = (obj: Json) => ({
    apiVersion: obj.apiVersion,
    kind: obj.kind,
    name: (obj.metadata as { name: string }).name,
    uid: uidOf(obj),
  });

  async function budget(name: string, spec: Json, path = budgetsPath): Promise<void> {
    await create(path, { apiVersion: "policy/v1", kind: "PodDisruptionBudget", metadata: { name }, spec });
  }

  function statusOf(name: string, path = budgetsPath): Promise<Json> {
    return eventually(async () => {
      const status = ((await call("GET", `${path}/${name}`)).body?.status ?? {}) as Json;
      expect(status.conditions).toBeDefined();
      return status;
    });
  }

  /** Waits until the status of `name` equals `expected`. */
  function settles(name: string, expected: Json, path = budgetsPath): Promise<void> {
    return eventually(async () => {
      expect(((await call("GET", `${path}/${name}`)).body as Json).status).toEqual(expected);
    });
  }

  beforeAll(async () => {
    server = await startServer({
      insecure: true,
      adminToken: token,
      controllers: ["disruption-controller"],
      // No serviceaccount controller runs, so no `default` ServiceAccount exists to admit pods with.
      admission: { disablePlugins: ["ServiceAccount"] },
    });
    for (const name of [namespace, "b-pdbs2"]) {
      await create("/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name } });
    }
  });
  afterAll(() => server.close());

  it("counts Ready pods against an integer minAvailable, following pods and spec changes", async () => {
    await pod("a1", "int");
    await pod("a2", "int");
    await pod("a3", "int", { ready: false });
    await budget("int", { minAvailable: 1, selector: { matchLabels: { app: "int" } } });
    await settles("int", {
      observedGeneration: 1,
      disruptionsAllowed: 1,
      currentHealthy: 2,
      desiredHealthy: 1,
      expectedPods: 3,
      conditions: [condition("True", "SufficientPods", 1)],
    });
    await call("PATCH", `${budgetsPath}/int`, { spec: { minAvailable: 2 } }, "application/merge-patch+json");
    await settles("int", {
      observedGeneration: 2,
      disruptionsAllowed: 0,
      currentHealthy: 2,
      desiredHealthy: 2,
      expectedPods: 3,
      conditions: [condition("False", "InsufficientPods", 2)],
    });
    await call("DELETE", `${ns}/pods/a3?gracePeriodSeconds=0`);
    await settles("int", {
      observedGeneration: 2,
      disruptionsAllowed: 0,
      currentHealthy: 2,
      desiredHealthy: 2,
      expectedPods: 2,
      conditions: [condition("False", "InsufficientPods", 2)],
    });
  });

  it("takes percentages and maxUnavailable against the scale of the pods' controllers, rounding up", async () => {
    const rs = await create(`${apps}/replicasets`, {
      apiVersion: "apps/v1",
      kind: "ReplicaSet",
      metadata: { name: "rs" },
      spec: { replicas: 4, selector: { matchLabels: { app: "rs" } }, template: template("rs") },
    });
    for (const name of ["r1", "r2", "r3"]) await pod(name, "rs", { owner: ownerRef(rs) });
    await budget("rs", { maxUnavailable: "30%", selector: { matchLabels: { app: "rs" } } });
    await settles("rs", {
      observedGeneration: 1,
      disruptionsAllowed: 1,
      currentHealthy: 3,
      desiredHealthy: 2,
      expectedPods: 4,
      conditions: [condition("True", "SufficientPods", 1)],
    });

    const deployment = await create(`${apps}/deployments`, {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "dep" },
      spec: { replicas: 5, selector: { matchLabels: { app: "dep" } }, template: template("dep") },
    });
    const owned = await create(`${apps}/replicasets`, {
      apiVersion: "apps/v1",
      kind: "ReplicaSet",
      metadata: { name: "dep-rs", ownerReferences: [{ ...ownerRef(deployment), controller: true }] },
      spec: { replicas: 2, selector: { matchLabels: { app: "dep" } }, template: template("dep") },
    });
    for (const name of ["d1", "d2"]) await pod(name, "dep", { owner: ownerRef(owned) });
    await budget("dep", { minAvailable: "50%", selector: { matchLabels: { app: "dep" } } });
    const deploymentStatus = (desired: number, expected: number, allowed: number) => ({
      observedGeneration: 1,
      disruptionsAllowed: allowed,
      currentHealthy: 2,
      desiredHealthy: desired,
      expectedPods: expected,
      conditions: [allowed > 0 ? condition("True", "SufficientPods", 1) : condition("False", "InsufficientPods", 1)],
    });
    await settles("dep", deploymentStatus(3, 5, 0));
    // A new scale counts at once: kapi re-syncs a namespace's budgets when a workload changes.
    await call("PATCH", `${apps}/deployments/dep`, { spec: { replicas: 2 } }, "application/merge-patch+json");
    await settles("dep", deploymentStatus(1, 2, 1));

    const ss = await create(`${apps}/statefulsets`, {
      apiVersion: "apps/v1",
      kind: "StatefulSet",
      metadata: { name: "ss" },
      spec: { replicas: 3, serviceName: "ss", selector: { matchLabels: { app: "ss" } }, template: template("ss") },
    });
    await pod("s1", "ss", { owner: ownerRef(ss) });
    await budget("ss", { maxUnavailable: 1, selector: { matchLabels: { app: "ss" } } });
    await settles("ss", {
      observedGeneration: 1,
      disruptionsAllowed: 0,
      currentHealthy: 1,
      desiredHealthy: 2,
      expectedPods: 3,
      conditions: [condition("False", "InsufficientPods", 1)],
    });

    const rc = await create(`${ns}/replicationcontrollers`, {
      apiVersion: "v1",
      kind: "ReplicationController",
      metadata: { name: "rc" },
      spec: { replicas: 2, selector: { app: "rc" }, template: template("rc") },
    });
    for (const name of ["c1", "c2"]) await pod(name, "rc", { owner: ownerRef(rc) });
    await budget("rc", { maxUnavailable: "10%", selector: { matchLabels: { app: "rc" } } });
    await settles("rc", {
      observedGeneration: 1,
      disruptionsAllowed: 1,
      currentHealthy: 2,
      desiredHealthy: 1,
      expectedPods: 2,
      conditions: [condition("True", "SufficientPods", 1)],
    });
  });

  it("fails safe when a pod's controller cannot be found, and eviction waits for the budget", async () => {
    // The status kube-apiserver answers for a new budget; a failed sync keeps it, counts and generation.
    const created = { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 };
    const failed = (message: string) => ({
      ...created,
      conditions: [condition("False", "SyncFailed", undefined, message)],
    });

    await pod("x1", "ghost", {
      owner: { apiVersion: "apps/v1", kind: "ReplicaSet", name: "ghost", uid: "no-such-uid" },
    });
    await budget("ghost", { maxUnavailable: 1, selector: { matchLabels: { app: "ghost" } } });
    await settles("ghost", failed('found no controllers for pod "x1"'));
    const refused = await call("POST", `${ns}/pods/x1/eviction`, {
      apiVersion: "policy/v1",
      kind: "Eviction",
      metadata: { name: "x1" },
    });
    expect(refused.status).toBe(429);
    expect(refused.body?.details).toEqual({
      causes: [
        { reason: "DisruptionBudget", message: "The disruption budget ghost is still being processed by the server." },
      ],
      retryAfterSeconds: 10,
    });

    const job = await create(`/apis/batch/v1/namespaces/${namespace}/jobs`, {
      apiVersion: "batch/v1",
      kind: "Job",
      metadata: { name: "job" },
      spec: { template: { spec: { restartPolicy: "Never", containers: [{ name: "c", image: "busybox" }] } } },
    });
    await pod("j1", "job", { owner: ownerRef(job) });
    await budget("job", { minAvailable: "50%", selector: { matchLabels: { app: "job" } } });
    await settles("job", failed("jobs.batch does not implement the scale subresource"));

    await pod("w1", "widget", { owner: { apiVersion: "example.com/v1", kind: "Widget", name: "w", uid: "w-uid" } });
    await budget("widget", { maxUnavailable: "50%", selector: { matchLabels: { app: "widget" } } });
    await settles("widget", failed('no matches for kind "Widget" in version "example.com/v1"'));

    // Unmanaged pods are no error: they add nothing to the expected count.
    await pod("b1", "bare");
    await budget("bare", { maxUnavailable: 1, selector: { matchLabels: { app: "bare" } } });
    await settles("bare", {
      observedGeneration: 1,
      disruptionsAllowed: 0,
      currentHealthy: 1,
      desiredHealthy: 0,
      expectedPods: 0,
      conditions: [condition("False", "InsufficientPods", 1)],
    });
  });

  it("selects every pod with an empty selector and none without one", async () => {
    const other = "/apis/policy/v1/namespaces/b-pdbs2/poddisruptionbudgets";
    await pod("e1", "one", { ns: "b-pdbs2" });
    await pod("e2", "two", { ns: "b-pdbs2" });
    await budget("all", { minAvailable: 1, selector: {} }, other);
    await budget("none", { minAvailable: 1 }, other);
    expect(await statusOf("all", other)).toEqual({
      observedGeneration: 1,
      disruptionsAllowed: 1,
      currentHealthy: 2,
      desiredHealthy: 1,
      expectedPods: 2,
      conditions: [condition("True", "SufficientPods", 1)],
    });
    expect(await statusOf("none", other)).toEqual({
      observedGeneration: 1,
      disruptionsAllowed: 0,
      currentHealthy: 0,
      desiredHealthy: 1,
      expectedPods: 0,
      conditions: [condition("False", "InsufficientPods", 1)],
    });
  });

  it("sets back a DisruptionTarget condition left True for 2 minutes on a pod not deleting", async () => {
    await pod("st1", "stale");
    const pod1 = (await call("GET", `${ns}/pods/st1`)).body as { metadata: { generation: number } };
    const longAgo = new Date(Date.now() - 3 * 60_000).toISOString().replace(/\.\d+Z$/, "Z");
    const status = {
      conditions: [
        { type: "Ready", status: "True" },
        {
          type: "DisruptionTarget",
          status: "True",
          lastTransitionTime: longAgo,
          reason: "EvictionByEvictionAPI",
          message: "Eviction API: evicting",
        },
      ],
    };
    await call("PATCH", `${ns}/pods/st1/status`, { status }, "application/merge-patch+json");
    await eventually(async () => {
      const conditions = ((await call("GET", `${ns}/pods/st1`)).body as { status: { conditions: Json[] } }).status
        .conditions;
      expect(conditions.find((c) => c.type === "DisruptionTarget")).toEqual({
        type: "DisruptionTarget",
        observedGeneration: pod1.metadata.generation,
        status: "False",
        lastProbeTime: null,
        lastTransitionTime: expect.any(String),
      });
    });
  });
});
