// API machinery details checked against kube-apiserver v1.36 over HTTP: list items without kind/apiVersion,
// a create naming a resourceVersion, creates through PUT, a failed JSON patch test, an apply that creates with
// only the patch verb, and a watch asking for no initial events.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../../runtime/server/start-server.js";

type Json = Record<string, unknown>;

describe("object shapes and small API machinery differences", () => {
  let server: RunningServer;
  let call: (
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ) => Promise<{ status: number; text: string; json: () => Json }>;

  beforeAll(async () => {
    server = await startServer({ insecure: true, controllers: false });
    call = async (method, path, body, headers = {}) => {
      const res = await fetch(server.url + path, {
        method,
        headers: { Authorization: `Bearer ${server.adminToken}`, "Content-Type": "application/json", ...headers },
        ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
      });
      const text = await res.text();
      return { status: res.status, text, json: () => JSON.parse(text) as Json };
    };
    const ns = await call("POST", "/api/v1/namespaces", { metadata: { name: "d-ns1" } });
    expect(ns.status).toBe(201);
    const cm = await call("POST", "/api/v1/namespaces/d-ns1/configmaps", {
      metadata: { name: "d-p" },
      data: { a: "1" },
    });
    expect(cm.status).toBe(201);
  });
  afterAll(() => server.close());

  it("writes a built-in list's items without kind and apiVersion in JSON and YAML, but keeps them in tables", async () => {
    const list = (await call("GET", "/api/v1/namespaces/d-ns1/configmaps")).json();
    expect(list.kind).toBe("ConfigMapList");
    const [item] = list.items as Json[];
    expect(Object.keys(item as Json)).toEqual(["metadata", "data"]);
    const pretty = (await call("GET", "/api/v1/namespaces/d-ns1/configmaps?pretty=true")).json();
    expect((pretty.items as Json[])[0]).not.toHaveProperty("kind");
    const yaml = await call("GET", "/api/v1/namespaces/d-ns1/configmaps", undefined, { Accept: "application/yaml" });
    expect(yaml.text).toMatch(/^apiVersion: v1\nitems:\n- data:\n/);
    const table = await call("GET", "/api/v1/namespaces/d-ns1/configmaps?includeObject=Object", undefined, {
      Accept: "application/json;as=Table;v=v1;g=meta.k8s.io",
    });
    const row = (table.json().rows as Json[])[0] as Json;
    expect(Object.keys(row.object as Json).slice(0, 2)).toEqual(["kind", "apiVersion"]);
    const metadataList = await call("GET", "/api/v1/namespaces/d-ns1/configmaps", undefined, {
      Accept: "application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io",
    });
    expect(Object.keys((metadataList.json().items as Json[])[0] as Json)).toEqual(["kind", "apiVersion", "metadata"]);
    const deleted = await call("DELETE", "/api/v1/namespaces/d-ns1/configmaps?labelSelector=none%3Dnone");
    expect(deleted.json().items).toEqual([]);
  });

  it("refuses a create naming a resourceVersion with kube's text, and dry runs it as given", async () => {
    const body = { metadata: { name: "d-rv", resourceVersion: "5" } };
    const refused = await call("POST", "/api/v1/namespaces/d-ns1/configmaps", body);
    // kube's storage answers this client mistake with a 500 without a reason; kapi answers 400 BadRequest.
    expect(refused.status).toBe(400);
    expect(refused.text).toBe(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"resourceVersion should not be set on objects to be created","reason":"BadRequest","code":400}\n',
    );
    const dryRun = await call("POST", "/api/v1/namespaces/d-ns1/configmaps?dryRun=All", body);
    expect(dryRun.status).toBe(201);
    expect((dryRun.json().metadata as Json).resourceVersion).toBe("5");
    const ignored = await call("POST", "/api/v1/namespaces/d-ns1/configmaps", {
      metadata: { name: "d-rv0", resourceVersion: "0" },
    });
    expect(ignored.status).toBe(201);
  });

  it("creates a Lease and a RuntimeClass by PUT, with or without a resourceVersion, then wants one to update", async () => {
    const lease = "/apis/coordination.k8s.io/v1/namespaces/d-ns1/leases/d-l1";
    const created = await call("PUT", lease, {
      apiVersion: "coordination.k8s.io/v1",
      kind: "Lease",
      metadata: { name: "d-l1" },
    });
    expect(created.status).toBe(201);
    const pinned = await call("PUT", "/apis/coordination.k8s.io/v1/namespaces/d-ns1/leases/d-l2", {
      apiVersion: "coordination.k8s.io/v1",
      kind: "Lease",
      metadata: { name: "d-l2", resourceVersion: "7" },
    });
    expect(pinned.status).toBe(201);
    const runtimeClass = "/apis/node.k8s.io/v1/runtimeclasses/d-rc";
    const body = { apiVersion: "node.k8s.io/v1", kind: "RuntimeClass", metadata: { name: "d-rc" }, handler: "x" };
    expect((await call("PUT", runtimeClass, body)).status).toBe(201);
    const again = await call("PUT", runtimeClass, body);
    expect(again.status).toBe(422);
    expect(again.json().message).toBe(
      'runtimeclasses.node.k8s.io "d-rc" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update',
    );
  });

  it("answers a failed JSON patch test with kube's Status, details included", async () => {
    const failed = await call(
      "PATCH",
      "/api/v1/namespaces/d-ns1/configmaps/d-p",
      [{ op: "test", path: "/data/a", value: "2" }],
      {
        "Content-Type": "application/json-patch+json",
      },
    );
    expect(failed.status).toBe(422);
    expect(failed.text).toBe(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the server rejected our request due to an error in our request","reason":"Invalid","details":{},"code":422}\n',
    );
  });

  it("wants the create verb too when an apply or a PUT creates", async () => {
    await call("POST", "/apis/rbac.authorization.k8s.io/v1/namespaces/d-ns1/roles", {
      metadata: { name: "d-patch" },
      rules: [
        {
          apiGroups: ["", "coordination.k8s.io"],
          resources: ["configmaps", "leases"],
          verbs: ["get", "patch", "update"],
        },
      ],
    });
    await call("POST", "/apis/rbac.authorization.k8s.io/v1/namespaces/d-ns1/rolebindings", {
      metadata: { name: "d-patch" },
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "d-patch" },
      subjects: [{ apiGroup: "rbac.authorization.k8s.io", kind: "User", name: "d-user" }],
    });
    const asUser = { "Impersonate-User": "d-user" };
    const applied = await call(
      "PATCH",
      "/api/v1/namespaces/d-ns1/configmaps/d-ap?fieldManager=m",
      { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "d-ap" }, data: { a: "1" } },
      { ...asUser, "Content-Type": "application/apply-patch+yaml" },
    );
    expect(applied.status).toBe(403);
    expect(applied.text).toBe(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"configmaps \\"d-ap\\" is forbidden: User \\"d-user\\" cannot create resource \\"configmaps\\" in API group \\"\\" in the namespace \\"d-ns1\\"","reason":"Forbidden","details":{"name":"d-ap","kind":"configmaps"},"code":403}\n',
    );
    const reapplied = await call(
      "PATCH",
      "/api/v1/namespaces/d-ns1/configmaps/d-p?fieldManager=m",
      { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "d-p" }, data: { b: "2" } },
      { ...asUser, "Content-Type": "application/apply-patch+yaml" },
    );
    expect(reapplied.status).toBe(200);
    const put = await call(
      "PUT",
      "/apis/coordination.k8s.io/v1/namespaces/d-ns1/leases/d-l3",
      { apiVersion: "coordination.k8s.io/v1", kind: "Lease", metadata: { name: "d-l3" } },
      asUser,
    );
    expect(put.status).toBe(403);
    expect(put.json().message).toBe(
      'leases.coordination.k8s.io "d-l3" is forbidden: User "d-user" cannot create resource "leases" in API group "coordination.k8s.io" in the namespace "d-ns1"',
    );
  });

  it("sends no initial events to a watch with sendInitialEvents=false, from resourceVersion 0 or unset", async () => {
    for (const query of [
      "sendInitialEvents=false&resourceVersion=0&resourceVersionMatch=NotOlderThan",
      "sendInitialEvents=false&resourceVersion=0&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true",
      "sendInitialEvents=false&resourceVersionMatch=NotOlderThan",
    ]) {
      const watch = await call("GET", `/api/v1/namespaces/d-ns1/configmaps?watch=1&timeoutSeconds=1&${query}`);
      expect(watch.status, query).toBe(200);
      expect(watch.text, query).toBe("");
    }
    const initial = await call(
      "GET",
      "/api/v1/namespaces/d-ns1/configmaps?watch=1&timeoutSeconds=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan",
    );
    expect(initial.text).toContain('"type":"ADDED"');
    const invalid = await call(
      "GET",
      "/api/v1/namespaces/d-ns1/configmaps?watch=1&sendInitialEvents=false&resourceVersion=0",
    );
    expect(invalid.status).toBe(422);
    expect(invalid.json().message).toBe(
      'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
    );
  });

  it("sends a Table watch's bookmark as a Table of one row over the bookmark, as kube-apiserver", async () => {
    const watch = await call(
      "GET",
      "/api/v1/namespaces/d-ns1/configmaps?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&timeoutSeconds=1",
      undefined,
      { Accept: "application/json;as=Table;v=v1;g=meta.k8s.io" },
    );
    const events = watch.text
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Json);
    expect(events.map((e) => e.type).slice(-2)).toEqual(["ADDED", "BOOKMARK"]);
    const bookmark = events.at(-1)?.object as Json;
    const rv = (bookmark.metadata as Json).resourceVersion as string;
    // The reference's bookmark (kube-apiserver v1.36.2), its resourceVersion aside.
    expect(bookmark).toEqual({
      kind: "Table",
      apiVersion: "meta.k8s.io/v1",
      metadata: { resourceVersion: rv },
      columnDefinitions: null,
      rows: [
        {
          cells: ["", 0, "<unknown>"],
          object: {
            kind: "PartialObjectMetadata",
            apiVersion: "meta.k8s.io/v1",
            metadata: { resourceVersion: rv, annotations: { "k8s.io/initial-events-end": "true" } },
          },
        },
      ],
    });
  });
});
