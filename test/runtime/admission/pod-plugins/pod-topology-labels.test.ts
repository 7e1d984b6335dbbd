// PodTopologyLabels, on by default: a pod created on a node, or bound to one through pods/binding, gets the
// node's zone and region labels. Expected values are kube-apiserver v1.36.2's answers to the same requests.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type InProcessServer, startServer } from "../../../../runtime/index.js";

let server: InProcessServer;

async function send(
  method: string,
  path: string,
  body?: object,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await server.request({
    method,
    path,
    headers: { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const labelsOf = (obj: Record<string, unknown>) => (obj.metadata as { labels?: Record<string, string> }).labels;
const pod = (name: string, spec: object = {}) => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name, labels: { a: "b" } },
  spec: { containers: [{ name: "c", image: "busybox" }], ...spec },
});

beforeAll(async () => {
  // No controller creates the default service account here, which the ServiceAccount plugin would want.
  server = await startServer({ listen: false, controllers: false, admission: { disablePlugins: ["ServiceAccount"] } });
  expect(
    (await send("POST", "/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: "m-ns2" } }))
      .status,
  ).toBe(201);
  const node = {
    apiVersion: "v1",
    kind: "Node",
    metadata: {
      name: "m-node1",
      labels: { "topology.kubernetes.io/zone": "z1", "topology.kubernetes.io/region": "r1", other: "x" },
    },
  };
  expect((await send("POST", "/api/v1/nodes", node)).status).toBe(201);
});
afterAll(() => server.close());

describe("PodTopologyLabels", () => {
  it("labels a pod created on a node", async () => {
    const res = await send("POST", "/api/v1/namespaces/m-ns2/pods", pod("m-p5", { nodeName: "m-node1" }));
    expect(res.status).toBe(201);
    expect(labelsOf(res.body)).toEqual({
      a: "b",
      "topology.kubernetes.io/region": "r1",
      "topology.kubernetes.io/zone": "z1",
    });
    const elsewhere = await send("POST", "/api/v1/namespaces/m-ns2/pods", pod("m-p6", { nodeName: "m-absent" }));
    expect(labelsOf(elsewhere.body)).toEqual({ a: "b" });
  });

  it("labels the Binding of pods/binding to a Node, which the binding copies onto the pod", async () => {
    expect((await send("POST", "/api/v1/namespaces/m-ns2/pods", pod("m-p3"))).status).toBe(201);
    const binding = {
      apiVersion: "v1",
      kind: "Binding",
      metadata: { name: "m-p3", labels: { "topology.kubernetes.io/zone": "mine", b: "1" } },
      target: { kind: "Node", name: "m-node1" },
    };
    const res = await send("POST", "/api/v1/namespaces/m-ns2/pods/m-p3/binding", binding);
    expect(res).toEqual({
      status: 201,
      body: { kind: "Status", apiVersion: "v1", metadata: {}, status: "Success", code: 201 },
    });
    const bound = await send("GET", "/api/v1/namespaces/m-ns2/pods/m-p3");
    expect(labelsOf(bound.body)).toEqual({
      a: "b",
      b: "1",
      "topology.kubernetes.io/region": "r1",
      "topology.kubernetes.io/zone": "z1",
    });
  });

  it("leaves a binding whose target names no kind alone", async () => {
    expect((await send("POST", "/api/v1/namespaces/m-ns2/pods", pod("m-p4"))).status).toBe(201);
    const binding = { apiVersion: "v1", kind: "Binding", metadata: { name: "m-p4" }, target: { name: "m-node1" } };
    expect((await send("POST", "/api/v1/namespaces/m-ns2/pods/m-p4/binding", binding)).status).toBe(201);
    const bound = await send("GET", "/api/v1/namespaces/m-ns2/pods/m-p4");
    expect(labelsOf(bound.body)).toEqual({ a: "b" });
    expect((bound.body.spec as { nodeName: string }).nodeName).toBe("m-node1");
  });
});
