// kube-apiserver's APIService autoregistration and local availability, against kube-apiserver v1.36.2's
// answers: an `onstart` APIService per served built-in group/version with kube's priorities, Available with
// reason Local; not made again once deleted; `true` ones for custom resources' served versions, kept while
// their definition serves them; `autoregister-completion` on the health endpoints.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type InProcessServer, startServer } from "../../../runtime/server/start-server.js";
import { MemoryStore } from "../../../runtime/storage/memory-store.js";
import { eventually } from "./controller-harness.js";

const apiServices = "/apis/apiregistration.k8s.io/v1/apiservices";

interface ApiService {
  metadata: { name: string; labels?: Record<string, string> };
  spec: Record<string, unknown>;
  status?: { conditions?: Record<string, string>[] };
}

describe("APIService autoregistration", () => {
  let server: InProcessServer;
  const store = new MemoryStore();
  const get = async (path: string) => {
    const response = await server.request({ path });
    return { status: response.status, body: await response.text() };
  };
  const named = async (name: string): Promise<ApiService | undefined> => {
    const answer = await get(`${apiServices}/${name}`);
    return answer.status === 200 ? (JSON.parse(answer.body) as ApiService) : undefined;
  };

  beforeAll(async () => {
    server = await startServer({ listen: false, store, log: () => {} });
  });
  afterAll(() => server?.close());

  it("registers the served built-in group/versions as kube-apiserver v1.36 does", async () => {
    const list = await eventually(async () => {
      const items = (JSON.parse((await get(apiServices)).body) as { items: ApiService[] }).items;
      if (items.some((item) => item.status?.conditions === undefined)) throw new Error("not all Available yet");
      return items;
    });
    // The reference's list, its names and priorities.
    expect(list.map((s) => [s.metadata.name, s.spec.groupPriorityMinimum, s.spec.versionPriority])).toEqual([
      ["v1.", 18000, 1],
      ["v1.admissionregistration.k8s.io", 16700, 15],
      ["v1.apiextensions.k8s.io", 16700, 15],
      ["v1.apps", 17800, 15],
      ["v1.authentication.k8s.io", 17700, 15],
      ["v1.authorization.k8s.io", 17600, 15],
      ["v1.autoscaling", 17500, 15],
      ["v1.batch", 17400, 15],
      ["v1.certificates.k8s.io", 17300, 15],
      ["v1.coordination.k8s.io", 16500, 15],
      ["v1.discovery.k8s.io", 16200, 15],
      ["v1.events.k8s.io", 17750, 15],
      ["v1.flowcontrol.apiserver.k8s.io", 16100, 21],
      ["v1.networking.k8s.io", 17200, 15],
      ["v1.node.k8s.io", 16300, 15],
      ["v1.policy", 17100, 15],
      ["v1.rbac.authorization.k8s.io", 17000, 15],
      ["v1.resource.k8s.io", 16200, 21],
      ["v1.scheduling.k8s.io", 16600, 15],
      ["v1.storage.k8s.io", 16800, 15],
      ["v2.autoscaling", 17500, 30],
    ]);
    const core = list[0] as ApiService;
    expect(core.metadata.labels).toEqual({ "kube-aggregator.kubernetes.io/automanaged": "onstart" });
    // The core group's empty group is left out, as kube's omitempty leaves it.
    expect(core.spec).toEqual({ version: "v1", groupPriorityMinimum: 18000, versionPriority: 1 });
    expect(core.status?.conditions).toEqual([
      {
        type: "Available",
        status: "True",
        lastTransitionTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
        reason: "Local",
        message: "Local APIServices are always available",
      },
    ]);
    const ready = await get("/readyz/autoregister-completion");
    expect(ready).toEqual({ status: 200, body: "ok" });
  });

  it("leaves a deleted onstart APIService deleted, as kube syncs those once", async () => {
    const response = await server.request({ method: "DELETE", path: `${apiServices}/v1.node.k8s.io` });
    expect(response.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await named("v1.node.k8s.io")).toBeUndefined();
  });

  it("registers a custom resource's served versions and keeps them while the definition serves them", async () => {
    const crd = {
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "CustomResourceDefinition",
      metadata: { name: "widgets.h.example.com" },
      spec: {
        group: "h.example.com",
        scope: "Namespaced",
        names: { plural: "widgets", singular: "widget", kind: "Widget", listKind: "WidgetList" },
        versions: [
          { name: "v1", served: true, storage: true, schema: { openAPIV3Schema: { type: "object" } } },
          { name: "v2", served: false, storage: false, schema: { openAPIV3Schema: { type: "object" } } },
        ],
      },
    };
    const created = await server.request({
      method: "POST",
      path: "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
      body: crd,
    });
    expect(created.status).toBe(201);
    const registered = await eventually(async () => {
      const found = await named("v1.h.example.com");
      if (found?.status?.conditions === undefined) throw new Error("not registered yet");
      return found;
    });
    expect(registered.metadata.labels).toEqual({ "kube-aggregator.kubernetes.io/automanaged": "true" });
    expect(registered.spec).toEqual({
      group: "h.example.com",
      version: "v1",
      groupPriorityMinimum: 1000,
      versionPriority: 100,
    });
    expect(await named("v2.h.example.com")).toBeUndefined();
    // Deleted, it is made again; edited, its spec is put back.
    await server.request({ method: "DELETE", path: `${apiServices}/v1.h.example.com` });
    await eventually(async () => {
      if ((await named("v1.h.example.com")) === undefined) throw new Error("not made again yet");
    });
    const patched = await server.request({
      method: "PATCH",
      path: `${apiServices}/v1.h.example.com`,
      headers: { "content-type": "application/merge-patch+json" },
      body: { spec: { versionPriority: 7 } },
    });
    expect(patched.status).toBe(200);
    await eventually(async () => {
      if ((await named("v1.h.example.com"))?.spec.versionPriority !== 100) throw new Error("not put back yet");
    });
    await server.request({
      method: "DELETE",
      path: "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.h.example.com",
    });
    await eventually(async () => {
      if ((await named("v1.h.example.com")) !== undefined) throw new Error("not removed yet");
    });
  });

  it("removes at start the onstart APIServices of group/versions the server no longer serves", async () => {
    const narrowed = await startServer({
      listen: false,
      store,
      log: () => {},
      runtimeConfig: { "batch/v1": false },
    });
    try {
      const ask = async (name: string) => (await narrowed.request({ path: `${apiServices}/${name}` })).status;
      await eventually(async () => {
        if ((await ask("v1.batch")) !== 404) throw new Error("v1.batch still there");
      });
      expect(await ask("v1.apps")).toBe(200);
    } finally {
      await narrowed.close();
    }
  });
});
