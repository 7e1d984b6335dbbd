// The pod, node and namespace subresources over HTTP, as kube-apiserver v1.36.2 answers them with no
// kubelet (every expected answer below was recorded from it): connect subresources, binding, eviction and
// namespaces/finalize.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../../runtime/index.js";
import { jsonCaller } from "../json-caller.js";

const token = "pod-subresources-token";
const ns = "/api/v1/namespaces/b-ns1";

describe("pod subresources without kubelets", () => {
  let server: RunningServer;

  const call = jsonCaller(() => server.url, token);

  function pod(name: string, spec: Record<string, unknown> = {}): unknown {
    return {
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name, labels: { app: "a" } },
      spec: { containers: [{ name: "c", image: "busybox" }], ...spec },
    };
  }

  beforeAll(async () => {
    server = await startServer({
      insecure: true,
      adminToken: token,
      controllers: false,
      // No serviceaccount controller runs, so no `default` ServiceAccount exists to admit pods with.
      admission: { disablePlugins: ["ServiceAccount"] },
    });
    await call("POST", "/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: "b-ns1" } });
    await call("POST", "/api/v1/nodes", { apiVersion: "v1", kind: "Node", metadata: { name: "b-node1" } });
    await call("POST", `${ns}/pods`, pod("p1"));
    await call("POST", `${ns}/pods`, pod("p2", { nodeName: "nonode" }));
    await call("POST", `${ns}/pods`, pod("p3", { nodeName: "b-node1" }));
    await call("POST", `${ns}/pods`, pod("p5"));
    await call("POST", `${ns}/services`, {
      apiVersion: "v1",
      kind: "Service",
      metadata: { name: "s1" },
      spec: { selector: { app: "a" }, ports: [{ port: 80 }] },
    });
  });
  afterAll(() => server.close());

  it.each([
    ["GET", "p1/exec", 400, "BadRequest", "pod p1 does not have a host assigned"],
    ["POST", "p1/attach", 400, "BadRequest", "pod p1 does not have a host assigned"],
    ["GET", "p1/portforward", 400, "BadRequest", "pod p1 does not have a host assigned"],
    ["GET", "p1/proxy", 400, "BadRequest", "address not allowed"],
    ["DELETE", "p1/proxy/x", 400, "BadRequest", "address not allowed"],
    ["GET", "p2/log", 404, "NotFound", 'pods "nonode" not found'],
    ["GET", "p2/exec?command=ls", 404, "NotFound", 'pods "nonode" not found'],
    ["GET", "p2/log?container=x", 400, "BadRequest", "container x is not valid for pod p2"],
    ["GET", "p3/log", 500, undefined, "no preferred addresses found; known addresses: []"],
    [
      "GET",
      "p2/log?tailLines=-1",
      422,
      "Invalid",
      'PodLogOptions "p2" is invalid: tailLines: Invalid value: -1: must be greater than or equal to 0',
    ],
    [
      "GET",
      "p2/log?stream=Stdout",
      422,
      "Invalid",
      'PodLogOptions "p2" is invalid: stream: Forbidden: may not be specified',
    ],
  ])("%s pods/%s answers %i", async (method, path, code, reason, message) => {
    const answer = await call(method, `${ns}/pods/${path}`);
    expect(answer.status).toBe(code);
    expect(answer.body?.reason).toBe(reason);
    expect(answer.body?.message).toBe(message);
  });

  it("answers an empty log for a pod with no node, and 405 for other methods", async () => {
    expect(await call("GET", `${ns}/pods/p1/log`)).toEqual({ status: 204, body: undefined });
    expect((await call("POST", `${ns}/pods/p1/log`)).status).toBe(405);
  });

  it("answers node and service proxies as kube does without addresses or endpoints", async () => {
    const node = await call("GET", "/api/v1/nodes/b-node1/proxy/x");
    expect([node.status, node.body?.message]).toEqual([500, "no preferred addresses found; known addresses: []"]);
    const service = await call("GET", `${ns}/services/s1/proxy/x`);
    expect([service.status, service.body?.message]).toEqual([404, 'services "s1" not found']);
    const port = await call("GET", `${ns}/services/s1:81/proxy/x`);
    expect([port.status, port.body?.message]).toEqual([503, 'no service port 81 found for service "s1"']);
    await call("POST", `${ns}/endpoints`, { apiVersion: "v1", kind: "Endpoints", metadata: { name: "s1" } });
    const empty = await call("GET", `${ns}/services/s1/proxy/x`);
    expect([empty.status, empty.body?.message]).toEqual([503, 'no endpoints available for service "s1"']);
  });

  it("binds a pod once, through pods/binding and bindings, storing no Binding", async () => {
    const binding = (name: string, extra: Record<string, unknown> = {}) => ({
      apiVersion: "v1",
      kind: "Binding",
      metadata: { name, annotations: { x: "y" }, ...extra },
      target: { kind: "Node", name: "b-node1" },
    });
    const bound = await call("POST", `${ns}/pods/p5/binding`, binding("p5"));
    expect(bound).toEqual({
      status: 201,
      body: { kind: "Status", apiVersion: "v1", metadata: {}, status: "Success", code: 201 },
    });
    const stored = (await call("GET", `${ns}/pods/p5`)).body as {
      spec: Record<string, unknown>;
      metadata: Record<string, unknown>;
      status: { conditions: Record<string, unknown>[] };
    };
    expect(stored.spec.nodeName).toBe("b-node1");
    expect(stored.metadata.annotations).toEqual({ x: "y" });
    expect(stored.metadata.generation).toBe(1);
    expect(stored.status.conditions).toEqual([
      expect.objectContaining({ type: "PodScheduled", status: "True", lastProbeTime: null }),
    ]);
    const again = await call("POST", `${ns}/bindings`, binding("p5"));
    expect([again.status, again.body?.message]).toEqual([
      409,
      'Operation cannot be fulfilled on pods/binding "p5": pod p5 is already assigned to node "b-node1"',
    ]);
    const mismatch = await call("POST", `${ns}/pods/p1/binding`, binding("px"));
    expect([mismatch.status, mismatch.body?.message]).toEqual([
      400,
      "name in URL does not match name in Binding object",
    ]);
    const wrongKind = await call("POST", `${ns}/pods/p1/binding`, {
      ...binding("p1"),
      target: { kind: "Pod", name: "n" },
    });
    expect([wrongKind.status, wrongKind.body?.message]).toEqual([
      500,
      'target.kind: Unsupported value: "Pod": supported values: "Node", "<empty>"',
    ]);
    const dry = await call("POST", `${ns}/bindings?dryRun=All`, binding("p1"));
    expect(dry.status).toBe(201);
    expect(
      ((await call("GET", `${ns}/pods/p1`)).body as { spec: Record<string, unknown> }).spec.nodeName,
    ).toBeUndefined();
  });

  it("evicts a pending pod at once and refuses one its budget protects", async () => {
    await call("POST", `${ns}/pods`, pod("e1"));
    const evicted = await call("POST", `${ns}/pods/e1/eviction`, {
      apiVersion: "policy/v1",
      kind: "Eviction",
      metadata: { name: "e1" },
    });
    expect(evicted.status).toBe(201);
    expect((await call("GET", `${ns}/pods/e1`)).status).toBe(404);

    await call("POST", `${ns}/pods`, pod("e2", { nodeName: "b-node1" }));
    await call("PATCH", `${ns}/pods/e2/status`, { status: { phase: "Running" } }, "application/merge-patch+json");
    await call("POST", "/apis/policy/v1/namespaces/b-ns1/poddisruptionbudgets", {
      apiVersion: "policy/v1",
      kind: "PodDisruptionBudget",
      metadata: { name: "pdb" },
      spec: { minAvailable: 1, selector: { matchLabels: { app: "a" } } },
    });
    const refused = await call("POST", `${ns}/pods/e2/eviction`, {
      apiVersion: "policy/v1",
      kind: "Eviction",
      metadata: { name: "e2" },
    });
    expect(refused.status).toBe(429);
    expect(refused.body?.message).toBe("Cannot evict pod as it would violate the pod's disruption budget.");
    expect(refused.body?.details).toEqual({
      causes: [
        { reason: "DisruptionBudget", message: "The disruption budget pdb is still being processed by the server." },
      ],
      retryAfterSeconds: 10,
    });
  });

  it("changes a namespace's spec.finalizers only through finalize", async () => {
    const namespace = (await call("GET", "/api/v1/namespaces/b-ns1")).body as Record<string, unknown>;
    const finalized = await call("PUT", "/api/v1/namespaces/b-ns1/finalize", {
      ...namespace,
      spec: { finalizers: [] },
    });
    expect(finalized.status).toBe(200);
    expect((finalized.body as { spec: unknown }).spec).toEqual({});
    expect((await call("POST", "/api/v1/namespaces/b-ns1/finalize", namespace)).status).toBe(405);
  });
});
