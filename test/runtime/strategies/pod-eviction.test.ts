// pods/eviction over HTTP with the disruption controller keeping the budgets' status, compared with
// kube-apiserver v1.36.2's answers. The reference runs no controller manager: its answers were recorded with
// the budget status written by hand through the status subresource (the status kube's disruption controller
// would write), then the same evictions asked.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../../runtime/index.js";
import { eventually } from "../controllers/controller-harness.js";
import { jsonCaller } from "../json-caller.js";

const token = "pod-eviction-token";
const ns = "/api/v1/namespaces/b-evict";
const budgetsPath = "/apis/policy/v1/namespaces/b-evict/poddisruptionbudgets";

type Json = Record<string, unknown>;

const success = { kind: "Status", apiVersion: "v1", metadata: {}, status: "Success", code: 201 };

function budgetRefusal(cause: string): Json {
  return {
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Failure",
    message: "Cannot evict pod as it would violate the pod's disruption budget.",
    reason: "TooManyRequests",
    details: { causes: [{ reason: "DisruptionBudget", message: cause }] },
    code: 429,
  };
}

function eviction(name: string, extra: Json = {}, apiVersion = "policy/v1"): Json {
  return { apiVersion, kind: "Eviction", metadata: { name }, ...extra };
}

describe("pods/eviction with the disruption controller", () => {
  let server: RunningServer;

  const call = jsonCaller(() => server.url, token);

  /** A pod on a node, Running, its Ready condition as given. */
  async function runningPod(name: string, app: string, ready = true): Promise<void> {
    await call("POST", `${ns}/pods`, {
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name, labels: { app } },
      spec: { nodeName: "b-node", containers: [{ name: "c", image: "busybox" }] },
    });
    const status = { phase: "Running", conditions: [{ type: "Ready", status: ready ? "True" : "False" }] };
    await call("PATCH", `${ns}/pods/${name}/status`, { status }, "application/merge-patch+json");
  }

  async function budget(name: string, spec: Json): Promise<void> {
    const created = await call("POST", budgetsPath, {
      apiVersion: "policy/v1",
      kind: "PodDisruptionBudget",
      metadata: { name },
      spec,
    });
    expect(created.status).toBe(201);
  }

  async function statusOf(name: string): Promise<Json> {
    return ((await call("GET", `${budgetsPath}/${name}`)).body?.status ?? {}) as Json;
  }

  /** Waits until the controller's status of `name` has `expected`'s fields. */
  function settled(name: string, expected: Json): Promise<Json> {
    return eventually(async () => {
      const status = await statusOf(name);
      expect(status).toMatchObject(expected);
      return status;
    });
  }

  const evict = (pod: string, body: Json = eviction(pod), query = "") =>
    call("POST", `${ns}/pods/${pod}/eviction${query}`, body);

  beforeAll(async () => {
    server = await startServer({
      insecure: true,
      adminToken: token,
      controllers: ["disruption-controller"],
      // No serviceaccount controller runs, so no `default` ServiceAccount exists to admit pods with.
      admission: { disablePlugins: ["ServiceAccount"] },
    });
    await call("POST", "/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: "b-evict" } });
    for (const name of ["p1", "p2", "p3"]) await runningPod(name, "a");
    await budget("pdb", { minAvailable: 2, selector: { matchLabels: { app: "a" } } });
  });
  afterAll(() => server.close());

  it("spends the one disruption allowed, then refuses with the budget's reason", async () => {
    const before = await settled("pdb", {
      observedGeneration: 1,
      disruptionsAllowed: 1,
      currentHealthy: 3,
      desiredHealthy: 2,
      expectedPods: 3,
    });
    expect(before.conditions).toEqual([
      {
        type: "DisruptionAllowed",
        status: "True",
        observedGeneration: 1,
        lastTransitionTime: expect.any(String),
        reason: "SufficientPods",
        message: "",
      },
    ]);

    const evicted = await evict("p1");
    expect(evicted).toEqual({ status: 201, body: success });
    const p1 = (await call("GET", `${ns}/pods/p1`)).body as { metadata: Json; status: { conditions: Json[] } };
    expect(p1.metadata.deletionGracePeriodSeconds).toBe(30);
    expect(p1.status.conditions[1]).toEqual({
      type: "DisruptionTarget",
      status: "True",
      lastProbeTime: null,
      lastTransitionTime: expect.any(String),
      reason: "EvictionByEvictionAPI",
      message: "Eviction API: evicting",
    });

    // p1 is deleting: no longer healthy, and no longer an eviction awaited.
    const after = await eventually(async () => {
      const status = await statusOf("pdb");
      expect(status).toMatchObject({ disruptionsAllowed: 0, currentHealthy: 2, desiredHealthy: 2 });
      expect(status.disruptedPods).toBeUndefined();
      return status;
    });
    expect((after.conditions as Json[])[0]).toMatchObject({ status: "False", reason: "InsufficientPods" });

    expect(await evict("p2")).toEqual({
      status: 429,
      body: budgetRefusal("The disruption budget pdb needs 2 healthy pods and has 2 currently"),
    });
  });

  it("records an eviction in disruptedPods until the pod deletes or the entry times out", async () => {
    await runningPod("p4", "a");
    await settled("pdb", { disruptionsAllowed: 1, currentHealthy: 3 });
    // The budget is spent before the pod's precondition fails, as kube does.
    const refused = await evict("p2", eviction("p2", { deleteOptions: { preconditions: { uid: "nope" } } }));
    const p2 = (await call("GET", `${ns}/pods/p2`)).body as { metadata: { uid: string } };
    expect(refused).toEqual({
      status: 409,
      body: {
        kind: "Status",
        apiVersion: "v1",
        metadata: {},
        status: "Failure",
        message: `Operation cannot be fulfilled on Pod "p2": the UID in the precondition (nope) does not match the UID in record (${p2.metadata.uid}). The object might have been deleted and then recreated`,
        reason: "Conflict",
        details: { name: "p2", kind: "Pod" },
        code: 409,
      },
    });
    const awaited = await settled("pdb", { disruptionsAllowed: 0, currentHealthy: 2 });
    expect(Object.keys(awaited.disruptedPods as Json)).toEqual(["p2"]);

    // An entry older than the 2-minute deletion timeout is dropped and the pod counts again.
    const current = (await call("GET", `${budgetsPath}/pdb`)).body as Json;
    const expired = new Date(Date.now() - 3 * 60_000).toISOString().replace(/\.\d+Z$/, "Z");
    const written = await call("PUT", `${budgetsPath}/pdb/status`, {
      ...current,
      status: { ...awaited, disruptedPods: { p2: expired, gone: expired } },
    });
    expect(written.status).toBe(200);
    const pruned = await settled("pdb", { disruptionsAllowed: 1, currentHealthy: 3 });
    expect(pruned.disruptedPods).toBeUndefined();
  });

  it("takes DeleteOptions from the Eviction: dry run, a policy/v1beta1 body, grace periods", async () => {
    await settled("pdb", { disruptionsAllowed: 1 });
    expect(await evict("p3", eviction("p3"), "?dryRun=All")).toEqual({ status: 201, body: success });
    expect(await evict("p3", eviction("p3", { deleteOptions: { dryRun: ["All"] } }, "policy/v1beta1"))).toEqual({
      status: 201,
      body: success,
    });
    expect(await evict("p3", eviction("p3", { deleteOptions: { dryRun: ["Foo"] } }), "?dryRun=All")).toEqual({
      status: 500,
      body: {
        kind: "Status",
        apiVersion: "v1",
        metadata: {},
        status: "Failure",
        message: "Non-matching dry-run options in request and content: [All] and [Foo]",
        code: 500,
      },
    });
    const p3 = (await call("GET", `${ns}/pods/p3`)).body as { metadata: Json; status: { conditions: Json[] } };
    expect(p3.metadata.deletionTimestamp).toBeUndefined();
    expect(p3.status.conditions.map((c) => c.type)).toEqual(["Ready"]);
    expect(await statusOf("pdb")).toMatchObject({ disruptionsAllowed: 1 });
    expect(await evict("nope")).toMatchObject({ status: 404, body: { message: 'pods "nope" not found' } });
    expect(await evict("p3", eviction("other"))).toMatchObject({
      status: 400,
      body: { message: "name in URL does not match name in Eviction object" },
    });

    await runningPod("g1", "g");
    await runningPod("g2", "g");
    const graceful = eviction("g1", { deleteOptions: { gracePeriodSeconds: 5 } }, "policy/v1beta1");
    expect(await evict("g1", graceful)).toEqual({ status: 201, body: success });
    const g1 = (await call("GET", `${ns}/pods/g1`)).body as { metadata: Json };
    expect(g1.metadata.deletionGracePeriodSeconds).toBe(5);
    expect(await evict("g2", eviction("g2", { deleteOptions: { gracePeriodSeconds: 0 } }))).toEqual({
      status: 201,
      body: success,
    });
    expect((await call("GET", `${ns}/pods/g2`)).status).toBe(404);
  });

  it("refuses a pod two budgets select with a 500 Status; an empty selector selects every pod", async () => {
    await budget("everything", { maxUnavailable: 1, selector: {} });
    await budget("nothing", { maxUnavailable: 1 });
    const twice = await evict("p3");
    expect(twice).toEqual({
      status: 500,
      body: {
        kind: "Status",
        apiVersion: "v1",
        metadata: {},
        status: "Failure",
        message: "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.",
        code: 500,
      },
    });
    await call("DELETE", `${budgetsPath}/everything`);
    expect(await evict("p3", eviction("p3"), "?dryRun=All")).toEqual({ status: 201, body: success });
    await call("DELETE", `${budgetsPath}/nothing`);
  });

  it("lets unhealthy pods go as unhealthyPodEvictionPolicy says", async () => {
    await runningPod("u1", "u", false);
    await runningPod("u2", "u");
    await budget("pdbu", { minAvailable: 2, selector: { matchLabels: { app: "u" } } });
    await settled("pdbu", { observedGeneration: 1, currentHealthy: 1, desiredHealthy: 2, disruptionsAllowed: 0 });
    // IfHealthyBudget (the default): an unready pod goes only while the budget is healthy.
    expect(await evict("u1")).toEqual({
      status: 429,
      body: budgetRefusal("The disruption budget pdbu needs 2 healthy pods and has 1 currently"),
    });
    const patched = await call(
      "PATCH",
      `${budgetsPath}/pdbu`,
      { spec: { unhealthyPodEvictionPolicy: "AlwaysAllow" } },
      "application/merge-patch+json",
    );
    expect(patched.status).toBe(200);
    // AlwaysAllow: it goes whatever the budget, even one the controller has not seen since the change.
    expect(await evict("u1")).toEqual({ status: 201, body: success });
    await settled("pdbu", { observedGeneration: 2, currentHealthy: 1, disruptionsAllowed: 0 });
    expect(await evict("u2")).toEqual({
      status: 429,
      body: budgetRefusal("The disruption budget pdbu needs 2 healthy pods and has 1 currently"),
    });
  });
});
