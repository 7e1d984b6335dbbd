// Server-side apply to a custom resource whose `spec` keeps unknown fields while declaring a list map,
// through a running server and raw HTTP: two field managers' items merge by key and each owns its own
// (`k:{"name":…}`), the same key conflicts (409), an undeclared field is owned field by field, and an
// embedded resource that keeps unknown fields has its metadata owned as ObjectMeta.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../../runtime/index.js";
import { eventually } from "../controllers/controller-harness.js";

// biome-ignore lint/suspicious/noExplicitAny: response bodies are read by path in assertions
type Json = Record<string, any>;

const token = "apply-preserve-token";
const crds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const gadgets = "/apis/preserve.example.com/v1/namespaces/default/gadgets";

// The definition as its manifest is written, sent as YAML.
const definition = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.preserve.example.com
spec:
  group: preserve.example.com
  scope: Namespaced
  names: {plural: gadgets, singular: gadget, kind: Gadget}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            x-kubernetes-preserve-unknown-fields: true
            properties:
              ports:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
                items:
                  type: object
                  required: [name]
                  properties: {name: {type: string}, port: {type: integer}}
              template:
                type: object
                x-kubernetes-embedded-resource: true
                x-kubernetes-preserve-unknown-fields: true
`;

function gadget(spec: string): string {
  return `apiVersion: preserve.example.com/v1\nkind: Gadget\nmetadata:\n  name: g\nspec:\n${spec}\n`;
}

describe("server-side apply below x-kubernetes-preserve-unknown-fields", () => {
  let server: RunningServer;

  async function call(method: string, path: string, body: string, contentType: string): Promise<Json> {
    const res = await fetch(server.url + path, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": contentType },
      body,
    });
    return { status: res.status, body: (await res.json()) as Json };
  }

  const apply = (manager: string, yaml: string, force = false) =>
    call(
      "PATCH",
      `${gadgets}/g?fieldManager=${manager}${force ? "&force=true" : ""}`,
      yaml,
      "application/apply-patch+yaml",
    );

  const owned = (obj: Json, manager: string) =>
    (obj.metadata.managedFields as Json[]).find((e) => e.manager === manager)?.fieldsV1;

  beforeAll(async () => {
    server = await startServer({ insecure: true, adminToken: token, controllers: false });
    expect((await call("POST", crds, definition, "application/yaml")).status).toBe(201);
    await eventually(async () => {
      const res = await fetch(`${server.url}${gadgets}`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
    });
  });
  afterAll(() => server.close());

  it("merges two managers' list map items by key, owns undeclared and embedded fields, conflicts on a shared key", async () => {
    const first = await apply(
      "alpha",
      gadget(
        "  ports:\n  - name: http\n    port: 80\n  mode: fast\n  template:\n    apiVersion: v1\n    kind: ConfigMap\n    metadata:\n      labels:\n        team: a\n    data:\n      k: v",
      ),
    );
    expect(first.status).toBe(201);
    const second = await apply(
      "beta",
      gadget("  ports:\n  - name: grpc\n    port: 9090\n  template:\n    metadata:\n      labels:\n        tier: b"),
    );
    expect(second.status).toBe(200);
    expect(second.body.spec).toEqual({
      ports: [
        { name: "http", port: 80 },
        { name: "grpc", port: 9090 },
      ],
      mode: "fast",
      template: {
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: { labels: { team: "a", tier: "b" } },
        data: { k: "v" },
      },
    });
    expect(owned(second.body, "alpha")).toEqual({
      "f:spec": {
        "f:mode": {},
        "f:ports": { 'k:{"name":"http"}': { ".": {}, "f:name": {}, "f:port": {} } },
        "f:template": {
          "f:apiVersion": {},
          "f:data": { ".": {}, "f:k": {} },
          "f:kind": {},
          "f:metadata": { "f:labels": { "f:team": {} } },
        },
      },
    });
    expect(owned(second.body, "beta")).toEqual({
      "f:spec": {
        "f:ports": { 'k:{"name":"grpc"}': { ".": {}, "f:name": {}, "f:port": {} } },
        "f:template": { "f:metadata": { "f:labels": { "f:tier": {} } } },
      },
    });

    const conflict = await apply("beta", gadget("  ports:\n  - name: http\n    port: 8080\n  mode: slow"));
    expect(conflict.status).toBe(409);
    expect(conflict.body.reason).toBe("Conflict");
    expect((conflict.body.details.causes as Json[]).map((c) => c.field).sort()).toEqual([
      ".spec.mode",
      '.spec.ports[name="http"].port',
    ]);

    const forced = await apply("beta", gadget("  ports:\n  - name: http\n    port: 8080\n  mode: slow"), true);
    expect(forced.status).toBe(200);
    // beta's items and labels it no longer applies go; alpha keeps its item but not the port it lost.
    expect(forced.body.spec.ports).toEqual([{ name: "http", port: 8080 }]);
    expect(forced.body.spec.mode).toBe("slow");
    expect(forced.body.spec.template.metadata).toEqual({ labels: { team: "a" } });
    expect(owned(forced.body, "alpha")["f:spec"]["f:ports"]).toEqual({
      'k:{"name":"http"}': { ".": {}, "f:name": {} },
    });
    expect(owned(forced.body, "alpha")["f:spec"]["f:mode"]).toBeUndefined();
  });
});
