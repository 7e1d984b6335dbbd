// A definition's status written through its status subresource as the upstream e2e spec writes it: a
// condition with only a message is stored, its type, status and lastTransitionTime as Go writes them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../../runtime/index.js";

// biome-ignore lint/suspicious/noExplicitAny: response bodies are read by path in assertions
type Json = Record<string, any>;

const token = "definition-status-token";
const crd = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/foos.status.example.com";

describe("a definition's status subresource", () => {
  let server: RunningServer;

  async function call(method: string, path: string, body: unknown, contentType = "application/json"): Promise<Json> {
    const res = await fetch(server.url + path, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": contentType },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Json };
  }

  beforeAll(async () => {
    server = await startServer({ insecure: true, adminToken: token, controllers: false });
    const created = await call("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", {
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "CustomResourceDefinition",
      metadata: { name: "foos.status.example.com" },
      spec: {
        group: "status.example.com",
        scope: "Cluster",
        names: { plural: "foos", singular: "foo", kind: "Foo" },
        versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: { type: "object" } } }],
      },
    });
    expect(created.status).toBe(201);
  });
  afterAll(() => server.close());

  it("stores a condition with only a message, as kube-apiserver does", async () => {
    const patched = await call(
      "PATCH",
      `${crd}/status`,
      [{ op: "add", path: "/status/conditions", value: [{ message: "patched" }] }],
      "application/json-patch+json",
    );
    expect(patched.body.message).toBeUndefined();
    expect(patched.status).toBe(200);
    // The reference's answer to the same patch.
    expect(patched.body.status.conditions).toEqual([
      { type: "", status: "", lastTransitionTime: null, message: "patched" },
    ]);
    const updated = await call("PUT", `${crd}/status`, {
      ...patched.body,
      status: { ...patched.body.status, conditions: [{ type: "Tested", status: "True" }, { message: "updated" }] },
    });
    expect(updated.body.message).toBeUndefined();
    expect(updated.status).toBe(200);
    expect(updated.body.status.conditions.map((c: Json) => [c.type, c.status, c.message])).toEqual([
      ["Tested", "True", undefined],
      ["", "", "updated"],
    ]);
  });
});
