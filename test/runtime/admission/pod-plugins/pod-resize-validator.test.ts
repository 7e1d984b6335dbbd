// PodResizeValidator and NodeDeclaredFeatureValidator, on by default: pods/resize of a bound pod against its
// node. Expected values are kube-apiserver v1.36.2's answers to the same requests.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type InProcessServer, startServer } from "../../../../runtime/index.js";

let server: InProcessServer;

async function send(
  method: string,
  path: string,
  body: object | undefined,
  type = "application/json",
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await server.request({
    method,
    path,
    headers: { "content-type": type },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const resize = (pod: string, spec: object) =>
  send("PATCH", `/api/v1/namespaces/m-ns2/pods/${pod}/resize`, { spec }, "application/strategic-merge-patch+json");

async function createPod(name: string, spec: object): Promise<void> {
  const res = await send("POST", "/api/v1/namespaces/m-ns2/pods", {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name },
    spec,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

function forbidden(pod: string, why: string, cause?: string): Record<string, unknown> {
  return {
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Failure",
    message: `pods "${pod}" is forbidden: ${why}`,
    reason: "Forbidden",
    details: { name: pod, kind: "pods", ...(cause === undefined ? {} : { causes: [{ reason: cause }] }) },
    code: 403,
  };
}

beforeAll(async () => {
  // No controller creates the default service account here, which the ServiceAccount plugin would want.
  server = await startServer({ listen: false, controllers: false, admission: { disablePlugins: ["ServiceAccount"] } });
  await send("POST", "/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: "m-ns2" } });
  // What kube-apiserver's Node carries for a status the kubelet has not reported, which kapi's status
  // validation asks for (kube-apiserver accepts a status patch without it).
  const unreported = {
    daemonEndpoints: { kubeletEndpoint: { Port: 0 } },
    nodeInfo: Object.fromEntries(
      ["machineID", "systemUUID", "bootID", "kernelVersion", "osImage", "containerRuntimeVersion"]
        .concat(["kubeletVersion", "kubeProxyVersion", "operatingSystem", "architecture"])
        .map((field) => [field, ""]),
    ),
  };
  const allocatable = { cpu: "1", memory: "1Gi", pods: "10" };
  for (const [name, declaredFeatures] of [
    ["m-node1", undefined],
    ["m-node3", ["InPlacePodLevelResourcesVerticalScaling"]],
  ] as const) {
    expect((await send("POST", "/api/v1/nodes", { apiVersion: "v1", kind: "Node", metadata: { name } })).status).toBe(
      201,
    );
    const status = {
      status: {
        ...unreported,
        allocatable,
        capacity: allocatable,
        ...(declaredFeatures === undefined ? {} : { declaredFeatures }),
      },
    };
    const patched = await send("PATCH", `/api/v1/nodes/${name}/status`, status, "application/merge-patch+json");
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
  }
  const windows = {
    apiVersion: "v1",
    kind: "Node",
    metadata: { name: "m-node2", labels: { "kubernetes.io/os": "windows" } },
  };
  expect((await send("POST", "/api/v1/nodes", windows)).status).toBe(201);
});
afterAll(() => server.close());

const container = (cpu: string, extra: object = {}) => ({
  name: "c",
  image: "busybox",
  resources: { requests: { cpu, ...extra } },
});

describe("PodResizeValidator", () => {
  it("refuses a resize beyond the node's allocatable cpu and memory", async () => {
    await createPod("m-p3", { nodeName: "m-node1", containers: [container("500m", { memory: "100Mi" })] });
    const res = await resize("m-p3", {
      containers: [{ name: "c", resources: { requests: { cpu: "2", memory: "2Gi" } } }],
    });
    expect(res.body).toEqual(
      forbidden(
        "m-p3",
        "node didn't have enough allocatable resources: cpu, requested: 2000, allocatable: 1000; memory, requested: 2147483648, allocatable: 1073741824",
        "NodeCapacity",
      ),
    );
    expect(
      (await resize("m-p3", { containers: [{ name: "c", resources: { requests: { cpu: "800m" } } }] })).status,
    ).toBe(200);
  });

  it("refuses a resize on a node that is not Linux or does not exist", async () => {
    await createPod("m-p-m-node2", { nodeName: "m-node2", containers: [container("100m")] });
    const windows = await resize("m-p-m-node2", {
      containers: [{ name: "c", resources: { requests: { cpu: "200m" } } }],
    });
    expect(windows.body).toEqual(
      forbidden(
        "m-p-m-node2",
        'pod resize is only supported on linux nodes, node "m-node2" is "windows"',
        "UnsupportedPlatform",
      ),
    );
    await createPod("m-p-m-nonode", { nodeName: "m-nonode", containers: [container("100m")] });
    const absent = await resize("m-p-m-nonode", {
      containers: [{ name: "c", resources: { requests: { cpu: "200m" } } }],
    });
    expect(absent.body).toEqual(forbidden("m-p-m-nonode", 'node "m-nonode" not found'));
    // A resize that changes nothing keeps the generation: nothing is checked.
    const same = await resize("m-p-m-nonode", {
      containers: [{ name: "c", resources: { requests: { cpu: "100m" } } }],
    });
    expect(same.status).toBe(200);
    expect((same.body.metadata as { generation: number }).generation).toBe(1);
  });
});

describe("NodeDeclaredFeatureValidator", () => {
  it("names the features a resize needs that the node does not declare", async () => {
    await createPod("m-p7", {
      nodeName: "m-node1",
      resources: { requests: { cpu: "100m" } },
      initContainers: [{ ...container("100m"), name: "i" }],
      containers: [container("100m")],
    });
    const both = {
      resources: { requests: { cpu: "200m" } },
      initContainers: [{ name: "i", resources: { requests: { cpu: "200m" } } }],
    };
    expect((await resize("m-p7", both)).body).toEqual(
      forbidden(
        "m-p7",
        'pod update requires features InPlacePodLevelResourcesVerticalScaling, InPlacePodVerticalScalingInitContainers which are not available on node "m-node1"',
      ),
    );
    await createPod("m-p8", {
      nodeName: "m-node3",
      resources: { requests: { cpu: "100m" } },
      initContainers: [{ ...container("100m"), name: "i" }],
      containers: [container("100m")],
    });
    expect((await resize("m-p8", both)).body).toEqual(
      forbidden(
        "m-p8",
        'pod update requires features InPlacePodVerticalScalingInitContainers which are not available on node "m-node3"',
      ),
    );
    const podLevel = await resize("m-p8", { resources: { requests: { cpu: "200m" } } });
    expect(podLevel.status).toBe(200);
    expect((podLevel.body.metadata as { generation: number }).generation).toBe(2);
  });
});
