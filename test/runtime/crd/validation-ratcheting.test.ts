// Validation ratcheting of custom resources (kube's CRDValidationRatcheting, on by default), as the upstream
// e2e specs exercise it: after the definition's schema tightens, an update that leaves invalid values as they
// were passes, while changed values, values of atomic and set lists in a changed list, and transition rules
// still fail. Server-side apply over raw HTTP against a running server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../../runtime/index.js";
import { eventually } from "../controllers/controller-harness.js";

// biome-ignore lint/suspicious/noExplicitAny: response bodies are read by path in assertions
type Json = Record<string, any>;

const token = "ratcheting-token";
const crdName = "widgets.ratchet.example.com";
const crds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const widgets = "/apis/ratchet.example.com/v1/namespaces/default/widgets";

const enumSchema = (allowed: string) => ({
  type: "object",
  properties: {
    field: { type: "string", enum: [allowed] },
    struct: { type: "object", properties: { field: { type: "string", enum: [allowed] } } },
    list: {
      type: "array",
      "x-kubernetes-list-type": "map",
      "x-kubernetes-list-map-keys": ["key"],
      items: {
        type: "object",
        required: ["key"],
        properties: { key: { type: "string" }, field: { type: "string", enum: [allowed] } },
      },
    },
    map: {
      type: "object",
      additionalProperties: { type: "object", properties: { field: { type: "string", enum: [allowed] } } },
    },
    atomicArray: { type: "array", items: { type: "string", enum: [allowed] } },
    setArray: { type: "array", "x-kubernetes-list-type": "set", items: { type: "string", enum: [allowed] } },
    counter: { type: "integer", "x-kubernetes-validations": [{ rule: "self > oldSelf", message: "must grow" }] },
    rule: { type: "string", "x-kubernetes-validations": [{ rule: 'self == "foo"' }] },
  },
});

describe("validation ratcheting of custom resources", () => {
  let server: RunningServer;

  async function call(method: string, path: string, body: unknown, contentType = "application/json"): Promise<Json> {
    const res = await fetch(server.url + path, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": contentType },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as Json };
  }

  const apply = (name: string, fields: Json) =>
    call(
      "PATCH",
      `${widgets}/${name}?fieldManager=manager`,
      { apiVersion: "ratchet.example.com/v1", kind: "Widget", metadata: { name, namespace: "default" }, ...fields },
      "application/apply-patch+yaml",
    );

  async function setSchema(allowed: string): Promise<void> {
    // The definition's controller writes its status meanwhile: read and write again on a conflict.
    await eventually(async () => {
      const crd = (await call("GET", `${crds}/${crdName}`, undefined)).body;
      crd.spec.versions[0].schema.openAPIV3Schema = enumSchema(allowed);
      expect((await call("PUT", `${crds}/${crdName}`, crd)).status).toBe(200);
    });
    // The served schema follows the definition: wait until a create sees the new enum.
    await eventually(async () => {
      const probe = await apply("probe", { field: allowed === "foo" ? "notfoo" : "foo" });
      expect(probe.status).toBe(422);
    });
  }

  beforeAll(async () => {
    server = await startServer({ insecure: true, adminToken: token, controllers: false });
    const definition = {
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "CustomResourceDefinition",
      metadata: { name: crdName },
      spec: {
        group: "ratchet.example.com",
        scope: "Namespaced",
        names: { plural: "widgets", singular: "widget", kind: "Widget" },
        versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: enumSchema("foo") } }],
      },
    };
    expect((await call("POST", crds, definition)).status).toBe(201);
    await eventually(async () => {
      expect((await call("GET", widgets, undefined)).status).toBe(200);
    });
  });
  afterAll(() => server.close());

  const invalidNow = {
    field: "foo",
    struct: { field: "foo" },
    list: [{ key: "first", field: "foo" }],
    map: { foo: { field: "foo" } },
    atomicArray: ["foo"],
    setArray: ["foo"],
    rule: "foo",
  };

  it("keeps unchanged invalid values, refuses changed ones and items of changed atomic and set lists", async () => {
    expect((await apply("w", invalidNow)).status).toBe(201);
    await setSchema("notfoo");

    // Only a label changes: every value the new schema refuses is as it was.
    const relabelled = await apply("w", { ...invalidNow, metadata: { labels: { foo: "bar" } } });
    expect(relabelled.body.message).toBeUndefined();
    expect(relabelled.status).toBe(200);

    const changed = await apply("w", {
      ...invalidNow,
      struct: { field: "bar" },
      list: [
        { key: "first", field: "foo" },
        { key: "second", field: "foo" },
      ],
      atomicArray: ["foo", "notfoo"],
      setArray: ["foo", "notfoo"],
    });
    expect(changed.status).toBe(422);
    const fields = (changed.body.details.causes as Json[]).map((c) => c.field).sort();
    // `<nil>`: the CEL rules were skipped, as kube skips them after an unsupported value.
    expect(fields).toEqual(["<nil>", "atomicArray[0]", "list[1].field", "setArray[0]", "struct.field"]);
  });

  it("ratchets a CEL rule on an unchanged value but never a transition rule", async () => {
    const changedRule = await apply("w", { ...invalidNow, rule: "bar" });
    expect(changedRule.status).toBe(422);
    expect((changedRule.body.details.causes as Json[]).map((c) => c.field)).toEqual(["rule"]);

    // A new field has no old value: its transition rule is not evaluated.
    expect((await apply("w", { ...invalidNow, counter: 1 })).status).toBe(200);
    // counter stays 1: `self > oldSelf` reads oldSelf, so it is never ratcheted.
    const same = await apply("w", { ...invalidNow, counter: 1, metadata: { labels: { foo: "baz" } } });
    expect(same.status).toBe(422);
    expect((same.body.details.causes as Json[]).map((c) => [c.field, c.message])).toEqual([
      ["counter", "Invalid value: 1: must grow"],
    ]);
  });
});
