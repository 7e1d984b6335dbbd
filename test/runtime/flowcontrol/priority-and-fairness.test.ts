// API Priority and Fairness through the whole pipeline: a FlowSchema routes one user to a one-seat priority
// level with one queue of one; a request held in admission (a plugin that waits on a promise the test
// releases) takes the seat, the next waits in the queue and the one after is rejected as kube-apiserver
// rejects it, while system:masters (exempt) and other users are served.
import { afterEach, describe, expect, it } from "vitest";
import type { AdmissionPlugin } from "../../../runtime/admission/admission.js";
import { type InProcessServer, startServer, watchEvents } from "../../../runtime/index.js";

const flowcontrol = "/apis/flowcontrol.apiserver.k8s.io/v1";
const tinyUser = { name: "c-user", groups: ["system:authenticated"] };

/** A gate: `entered` resolves once a held write reached admission; `release()` lets it (and later ones) go. */
function holdingPlugin() {
  let entered!: () => void;
  let release!: () => void;
  const gate = {
    entered: new Promise<void>((resolve) => {
      entered = resolve;
    }),
    released: new Promise<void>((resolve) => {
      release = resolve;
    }),
    release: () => release(),
  };
  const plugin: AdmissionPlugin = {
    name: "TestHold",
    async validate(a) {
      if (!a.name.startsWith("hold-")) return;
      entered();
      await gate.released;
    },
  };
  return { gate, plugin };
}

interface Created {
  metadata: { uid: string; managedFields?: { manager: string }[] };
  status?: { conditions?: Record<string, unknown>[] };
}

async function create(server: InProcessServer, path: string, body: Record<string, unknown>): Promise<Created> {
  const res = await server.request({ method: "POST", path, body });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as Created;
}

async function read(server: InProcessServer, path: string): Promise<Created> {
  return (await (await server.request({ path })).json()) as Created;
}

/** A tiny level (one seat of a two-seat server, one queue of one) and a schema sending c-user to it. */
async function tinyLevel(server: InProcessServer, limited: Record<string, unknown>) {
  const level = await create(server, `${flowcontrol}/prioritylevelconfigurations`, {
    apiVersion: "flowcontrol.apiserver.k8s.io/v1",
    kind: "PriorityLevelConfiguration",
    metadata: { name: "c-tiny" },
    spec: { type: "Limited", limited },
  });
  const schema = await create(server, `${flowcontrol}/flowschemas`, {
    apiVersion: "flowcontrol.apiserver.k8s.io/v1",
    kind: "FlowSchema",
    metadata: { name: "c-tiny" },
    spec: {
      priorityLevelConfiguration: { name: "c-tiny" },
      matchingPrecedence: 100,
      distinguisherMethod: { type: "ByUser" },
      rules: [
        {
          subjects: [{ kind: "User", user: { name: "c-user" } }],
          resourceRules: [{ verbs: ["*"], apiGroups: ["*"], resources: ["*"], clusterScope: true, namespaces: ["*"] }],
          nonResourceRules: [{ verbs: ["*"], nonResourceURLs: ["*"] }],
        },
      ],
    },
  });
  await create(server, "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings", {
    apiVersion: "rbac.authorization.k8s.io/v1",
    kind: "ClusterRoleBinding",
    metadata: { name: "c-user-admin" },
    roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "cluster-admin" },
    subjects: [{ apiGroup: "rbac.authorization.k8s.io", kind: "User", name: "c-user" }],
  });
  // The configuration consumer takes the new objects in a moment after they are stored.
  await expect
    .poll(async () =>
      (await server.request({ path: "/version", user: tinyUser })).headers.get("x-kubernetes-pf-prioritylevel-uid"),
    )
    .toBe(level.metadata.uid);
  return { level, schema };
}

const holdConfigMap = (name: string) => ({
  method: "POST",
  path: "/api/v1/namespaces/default/configmaps",
  body: { apiVersion: "v1", kind: "ConfigMap", metadata: { name } },
  user: tinyUser,
});

describe("API Priority and Fairness", () => {
  let server: InProcessServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("tags every response, exempt ones included, with the matched FlowSchema's and priority level's UIDs", async () => {
    server = await startServer({ listen: false });
    const exemptSchema = await read(server, `${flowcontrol}/flowschemas/exempt`);
    const exemptLevel = await read(server, `${flowcontrol}/prioritylevelconfigurations/exempt`);
    const admin = await server.request({ path: "/api/v1/namespaces" });
    expect(admin.headers.get("x-kubernetes-pf-flowschema-uid")).toBe(exemptSchema.metadata.uid);
    expect(admin.headers.get("x-kubernetes-pf-prioritylevel-uid")).toBe(exemptLevel.metadata.uid);
    // Refused by authorization, after classification: tagged too (global-default for a plain user).
    const global = await read(server, `${flowcontrol}/flowschemas/global-default`);
    const refused = await server.request({
      path: "/api/v1/namespaces",
      user: { name: "c-plain", groups: ["system:authenticated"] },
    });
    expect(refused.status).toBe(403);
    expect(refused.headers.get("x-kubernetes-pf-flowschema-uid")).toBe(global.metadata.uid);
  });

  it("queues in the flow's queue, rejects past the queue with 429 and Retry-After, and serves others", async () => {
    server = await startServer({ listen: false, maxRequestsInflight: 1, maxMutatingRequestsInflight: 1 });
    const { gate, plugin } = holdingPlugin();
    server.resources.addAdmission(plugin);
    const { level, schema } = await tinyLevel(server, {
      nominalConcurrencyShares: 1,
      lendablePercent: 0,
      limitResponse: { type: "Queue", queuing: { queues: 1, handSize: 1, queueLengthLimit: 1 } },
    });
    const held = server.request(holdConfigMap("hold-1"));
    await gate.entered;
    // The one seat is taken: this one waits in the queue ...
    const queued = server.request({ path: "/api/v1/namespaces/default/configmaps", user: tinyUser });
    await expect
      .poll(async () => {
        const text = await (await server?.request({ path: "/metrics" }))?.text();
        return /apiserver_flowcontrol_current_inqueue_requests\{priority_level="c-tiny",flow_schema="c-tiny"\} 1/.test(
          text ?? "",
        );
      })
      .toBe(true);
    // ... and the queue is full.
    const rejected = await server.request({ path: "/api/v1/namespaces/default/configmaps", user: tinyUser });
    expect(rejected.status).toBe(429);
    expect(rejected.headers.get("retry-after")).toBe("1");
    expect(rejected.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(rejected.headers.get("x-kubernetes-pf-flowschema-uid")).toBe(schema.metadata.uid);
    expect(rejected.headers.get("x-kubernetes-pf-prioritylevel-uid")).toBe(level.metadata.uid);
    expect(await rejected.text()).toBe("Too many requests, please try again later.\n");
    // system:masters (exempt) and users of other levels are served meanwhile.
    expect((await server.request({ path: "/api/v1/namespaces/default/configmaps" })).status).toBe(200);
    expect(
      (await server.request({ path: "/version", user: { name: "c-other", groups: ["system:authenticated"] } })).status,
    ).toBe(200);
    gate.release();
    expect((await held).status).toBe(201);
    expect((await queued).status).toBe(200);
    const metrics = await (await server.request({ path: "/metrics" })).text();
    expect(metrics).toContain(
      'apiserver_flowcontrol_rejected_requests_total{priority_level="c-tiny",flow_schema="c-tiny",reason="queue-full"} 1',
    );
    expect(metrics).toContain(
      'apiserver_flowcontrol_dispatched_requests_total{priority_level="c-tiny",flow_schema="c-tiny"}',
    );
    expect(metrics).toContain('apiserver_flowcontrol_nominal_limit_seats{priority_level="c-tiny"} 1');
  });

  // The reference (kube-apiserver v1.36.2, default flags, this level and schema, one create held by a
  // webhook) answered GET /version as c-user with 429, `Retry-After: 1`, `Content-Type: text/plain;
  // charset=utf-8`, `X-Content-Type-Options: nosniff`, both PF UID headers and the body below; the held
  // create then 201; rejected_requests_total{reason="concurrency-limit"} and the wait histogram with
  // execute="false" counted the rejections.
  it("rejects at once at a Reject level whose seats are taken, as the reference does", async () => {
    server = await startServer({ listen: false });
    const { gate, plugin } = holdingPlugin();
    server.resources.addAdmission(plugin);
    // No seats of its own and none to borrow: one request at a time runs (kube lets one in when idle).
    await tinyLevel(server, {
      nominalConcurrencyShares: 0,
      lendablePercent: 0,
      borrowingLimitPercent: 0,
      limitResponse: { type: "Reject" },
    });
    const held = server.request(holdConfigMap("hold-1"));
    await gate.entered;
    const rejected = await server.request({ path: "/version", user: tinyUser });
    expect(rejected.status).toBe(429);
    expect(rejected.headers.get("retry-after")).toBe("1");
    expect(rejected.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await rejected.text()).toBe("Too many requests, please try again later.\n");
    gate.release();
    expect((await held).status).toBe(201);
    const metrics = await (await server.request({ path: "/metrics" })).text();
    expect(metrics).toContain(
      'apiserver_flowcontrol_rejected_requests_total{priority_level="c-tiny",flow_schema="c-tiny",reason="concurrency-limit"} 1',
    );
    expect(metrics).toContain(
      'apiserver_flowcontrol_request_wait_duration_seconds_count{priority_level="c-tiny",flow_schema="c-tiny",execute="false"} 1',
    );
    expect(metrics).toContain('apiserver_flowcontrol_upper_limit_seats{priority_level="c-tiny"} 0');
  });

  it("rejects a request that waited past a quarter of the request timeout", async () => {
    server = await startServer({
      listen: false,
      maxRequestsInflight: 1,
      maxMutatingRequestsInflight: 1,
      requestTimeoutMs: 2000,
    });
    const { gate, plugin } = holdingPlugin();
    server.resources.addAdmission(plugin);
    await tinyLevel(server, {
      nominalConcurrencyShares: 1,
      lendablePercent: 0,
      limitResponse: { type: "Queue", queuing: { queues: 1, handSize: 1, queueLengthLimit: 5 } },
    });
    const held = server.request(holdConfigMap("hold-1"));
    await gate.entered;
    const waited = await server.request({ path: "/version", user: tinyUser });
    expect(waited.status).toBe(429);
    gate.release();
    await held;
    const metrics = await (await server.request({ path: "/metrics" })).text();
    expect(metrics).toContain(
      'apiserver_flowcontrol_rejected_requests_total{priority_level="c-tiny",flow_schema="c-tiny",reason="time-out"} 1',
    );
  });

  it("releases a watch's seats once its initial events are sent", async () => {
    server = await startServer({ listen: false, maxRequestsInflight: 1, maxMutatingRequestsInflight: 1 });
    await tinyLevel(server, { nominalConcurrencyShares: 1, lendablePercent: 0, limitResponse: { type: "Reject" } });
    const watch = await server.request({ path: "/api/v1/namespaces/default/configmaps?watch=true", user: tinyUser });
    expect(watch.status).toBe(200);
    const events = watchEvents(watch)[Symbol.asyncIterator]();
    expect((await events.next()).value?.type).toBe("ADDED");
    // The watch goes on, and holds no seat: another request of the one-seat level is served.
    await expect.poll(async () => (await server?.request({ path: "/version", user: tinyUser }))?.status).toBe(200);
    await events.return?.();
  });

  it("says whether a FlowSchema's priority level exists (Dangling)", async () => {
    server = await startServer({ listen: false });
    const schema = {
      apiVersion: "flowcontrol.apiserver.k8s.io/v1",
      kind: "FlowSchema",
      metadata: { name: "c-dangling" },
      spec: { priorityLevelConfiguration: { name: "c-missing" }, rules: [] },
    };
    await create(server, `${flowcontrol}/flowschemas`, schema);
    const condition = async () => {
      const object = await read(server as InProcessServer, `${flowcontrol}/flowschemas/c-dangling`);
      const { lastTransitionTime, ...rest } = object.status?.conditions?.[0] ?? {};
      return rest;
    };
    await expect.poll(condition).toEqual({
      type: "Dangling",
      status: "True",
      reason: "NotFound",
      message:
        'This FlowSchema references the PriorityLevelConfiguration object named "c-missing" but there is no such object',
    });
    await create(server, `${flowcontrol}/prioritylevelconfigurations`, {
      apiVersion: "flowcontrol.apiserver.k8s.io/v1",
      kind: "PriorityLevelConfiguration",
      metadata: { name: "c-missing" },
      spec: { type: "Limited", limited: { limitResponse: { type: "Reject" } } },
    });
    await expect.poll(condition).toEqual({
      type: "Dangling",
      status: "False",
      reason: "Found",
      message: 'This FlowSchema references the PriorityLevelConfiguration object named "c-missing" and it exists',
    });
    const object = await read(server, `${flowcontrol}/flowschemas/c-dangling`);
    expect(object.metadata.managedFields?.map((f) => f.manager)).toContain(
      "api-priority-and-fairness-config-consumer-v1",
    );
  });

  it("falls back to the max-in-flight limits when turned off", async () => {
    server = await startServer({
      listen: false,
      enablePriorityAndFairness: false,
      maxRequestsInflight: 1,
      maxMutatingRequestsInflight: 1,
    });
    const { gate, plugin } = holdingPlugin();
    server.resources.addAdmission(plugin);
    await create(server, "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings", {
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "ClusterRoleBinding",
      metadata: { name: "c-user-admin" },
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "cluster-admin" },
      subjects: [{ apiGroup: "rbac.authorization.k8s.io", kind: "User", name: "c-user" }],
    });
    const held = server.request(holdConfigMap("hold-1"));
    await gate.entered;
    const refused = await server.request({ ...holdConfigMap("c-second"), user: tinyUser });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("x-kubernetes-pf-flowschema-uid")).toBeNull();
    gate.release();
    expect((await held).status).toBe(201);
  });
});
