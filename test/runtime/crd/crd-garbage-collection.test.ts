// The garbage collector follows owner references to and from custom resources: a ConfigMap owned by a custom
// resource goes with it, and a custom resource owned by a ConfigMap goes with the ConfigMap, also for objects
// stored before their definition was served.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../../runtime/index.js";
import { eventually } from "../controllers/controller-harness.js";

type Json = Record<string, unknown>;

const token = "crd-gc-token";
const crontabs = "/apis/stable.example.com/v1/namespaces/default/crontabs";
const configMaps = "/api/v1/namespaces/default/configmaps";

const definition = {
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: "crontabs.stable.example.com" },
  spec: {
    group: "stable.example.com",
    scope: "Namespaced",
    names: { plural: "crontabs", singular: "crontab", kind: "CronTab" },
    versions: [
      {
        name: "v1",
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true } },
      },
    ],
  },
};

describe("garbage collection of custom resources", () => {
  let server: RunningServer;

  async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> {
    const res = await fetch(server.url + path, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text === "" ? {} : (JSON.parse(text) as Json) };
  }

  function ownerRef(obj: Json, apiVersion: string, kind: string) {
    const meta = obj.metadata as { name: string; uid: string };
    return [{ apiVersion, kind, name: meta.name, uid: meta.uid }];
  }

  beforeAll(async () => {
    server = await startServer({ insecure: true, adminToken: token, controllers: ["garbage-collector-controller"] });
    expect((await call("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", definition)).status).toBe(
      201,
    );
    await eventually(async () => expect((await call("GET", crontabs)).status).toBe(200));
  });

  afterAll(async () => {
    await server?.close();
  });

  it("deletes a ConfigMap whose owner, a custom resource, is deleted", async () => {
    const owner = await call("POST", crontabs, {
      apiVersion: "stable.example.com/v1",
      kind: "CronTab",
      metadata: { name: "owner" },
    });
    expect(owner.status).toBe(201);
    const dependent = {
      metadata: { name: "owned", ownerReferences: ownerRef(owner.body, "stable.example.com/v1", "CronTab") },
    };
    expect((await call("POST", configMaps, dependent)).status).toBe(201);
    expect((await call("DELETE", `${crontabs}/owner`)).status).toBe(200);
    await eventually(async () => expect((await call("GET", `${configMaps}/owned`)).status).toBe(404));
  });

  it("deletes a custom resource whose owner, a ConfigMap, is deleted", async () => {
    const owner = await call("POST", configMaps, { metadata: { name: "parent" } });
    expect(owner.status).toBe(201);
    const dependent = {
      apiVersion: "stable.example.com/v1",
      kind: "CronTab",
      metadata: { name: "child", ownerReferences: ownerRef(owner.body, "v1", "ConfigMap") },
    };
    expect((await call("POST", crontabs, dependent)).status).toBe(201);
    expect((await call("DELETE", `${configMaps}/parent`)).status).toBe(200);
    await eventually(async () => expect((await call("GET", `${crontabs}/child`)).status).toBe(404));
  });
});
