// --runtime-config: parsing as kube-apiserver reads the flag, which group/versions it turns on and off, and a
// server started with it serving exactly that in routes, discovery and OpenAPI.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kinds } from "../../../generated/registry.js";
import { type InProcessServer, type RunningServer, startServer } from "../../../runtime/index.js";
import { kindReference } from "../../../runtime/registry/kinds.js";
import { byGroupVersionResource } from "../../../runtime/registry/lookup.js";
import { isEnabled, parseRuntimeConfig } from "../../../runtime/registry/runtime-config.js";

describe("parseRuntimeConfig", () => {
  it("reads key=value pairs, a bare key (an empty value) as true, Go booleans as values", () => {
    expect(parseRuntimeConfig("samples.kapi.dev/v1=true, batch/v1=false,apps/v1/deployments=0,batch/v1/jobs")).toEqual({
      "samples.kapi.dev/v1": true,
      "batch/v1": false,
      "apps/v1/deployments": false,
      "batch/v1/jobs": true,
    });
    expect(parseRuntimeConfig("api/alpha=true,apps/v1=True")).toEqual({ "api/alpha": true, "apps/v1": true });
  });

  it("reads every core key as the whole core version and drops api/legacy, as kube-apiserver rewrites them", () => {
    expect(parseRuntimeConfig("v1=false")).toEqual({ v1: false });
    expect(parseRuntimeConfig("api/v1/pods=false,api/legacy=true")).toEqual({ v1: false });
    expect(parseRuntimeConfig("v1/pods=true")).toEqual({ v1: true });
  });

  // kube-apiserver v1.36.2's start errors for the same flag values.
  it.each([
    ["batch/v1=yes", 'invalid value of batch/v1: yes, err: strconv.ParseBool: parsing "yes": invalid syntax'],
    [
      "apps/v1/deployments=maybe",
      'invalid value of apps/v1/deployments: maybe, err: strconv.ParseBool: parsing "maybe": invalid syntax',
    ],
    ["api/alpha", "invalid value api/alpha="],
    ["api/all=1", "invalid value api/all=1"],
    ["api/all=false", "invalid runtime-config with only api/all=false"],
    ["batch=true", "runtime-config invalid key batch"],
    ["a/b/c/d=true", "runtime-config invalid key a/b/c/d"],
    ["foo/v1=true", "unknown api groups foo/v1"],
    ["foo/v1/bars=false", "unknown api groups foo/v1"],
    ["foo/v1=true,bar/v2=false", "unknown api groups bar/v2,foo/v1"],
    ["apps/v9=true", "group version apps/v9 that has not been registered"],
    [
      "apps/v1/Deployments=false",
      'invalid key apps/v1/Deployments: group/version/resource and resource is always lowercase plural, not "Deployments"',
    ],
  ])("refuses %s as kube-apiserver does", (text, message) => {
    expect(() => parseRuntimeConfig(text)).toThrow(message);
  });
});

describe("isEnabled", () => {
  const gv = (group: string, version: string) => ({ group, version });
  it("prefers the group/version's own key, then its stability, then api/all, then the default", () => {
    expect(isEnabled({}, gv("batch", "v1"), true)).toBe(true);
    expect(isEnabled({ "batch/v1": false }, gv("batch", "v1"), true)).toBe(false);
    expect(isEnabled({ "api/alpha": true }, gv("x.io", "v1alpha1"), false)).toBe(true);
    expect(isEnabled({ "api/alpha": true, "x.io/v1alpha1": false }, gv("x.io", "v1alpha1"), false)).toBe(false);
    expect(isEnabled({ "api/beta": true }, gv("x.io", "v1alpha1"), false)).toBe(false);
    expect(isEnabled({ "api/all": false }, gv("apps", "v1"), true)).toBe(false);
    expect(isEnabled({ "api/v1": false }, gv("", "v1"), true)).toBe(false);
  });
});

describe("a server started with --runtime-config", () => {
  let server: RunningServer;
  const token = "runtime-config-token";
  const get = async (path: string) => {
    const res = await fetch(server.url + path, { headers: { authorization: `Bearer ${token}` } });
    return { status: res.status, text: await res.text() };
  };

  beforeAll(async () => {
    server = await startServer({
      insecure: true,
      adminToken: token,
      controllers: false,
      runtimeConfig: { "batch/v1": false, "samples.kapi.dev/v1": true },
    });
  });
  afterAll(() => server.close());

  it("serves neither the routes, the discovery nor the OpenAPI of a version turned off", async () => {
    expect((await get("/apis/batch/v1/jobs")).status).toBe(404);
    expect((await get("/apis/batch/v1")).status).toBe(404);
    expect(JSON.parse((await get("/apis")).text).groups.map((g: { name: string }) => g.name)).not.toContain("batch");
    const index = JSON.parse((await get("/openapi/v3")).text).paths as Record<string, unknown>;
    expect(Object.keys(index)).not.toContain("apis/batch/v1");
    expect(Object.keys(index)).not.toContain("apis/batch");
    expect((await get("/openapi/v3/apis/batch/v1")).status).toBe(404);
    const v2 = JSON.parse((await get("/openapi/v2")).text).paths as Record<string, unknown>;
    expect(Object.keys(v2).filter((p) => p.startsWith("/apis/batch/"))).toEqual([]);
    expect(Object.keys(v2)).toContain("/apis/apps/v1/deployments");
  });

  it("serves a version turned on, with its OpenAPI", async () => {
    expect((await get("/apis/samples.kapi.dev/v1/widgets")).status).toBe(200);
    const index = JSON.parse((await get("/openapi/v3")).text).paths as Record<string, unknown>;
    expect(Object.keys(index)).toContain("apis/samples.kapi.dev/v1");
    const v2 = JSON.parse((await get("/openapi/v2")).text).paths as Record<string, unknown>;
    expect(Object.keys(v2)).toContain("/apis/samples.kapi.dev/v1/widgets");
  });
});

describe("in-server code on a server with groups switched off", () => {
  let server: InProcessServer;
  const logged: string[] = [];
  beforeAll(async () => {
    server = await startServer({
      listen: false,
      runtimeConfig: { "rbac.authorization.k8s.io/v1": false, "admissionregistration.k8s.io/v1": false },
      log: (message, error) => logged.push(`${message}: ${(error as Error).message}`),
    });
  });
  afterAll(() => server.close());

  it("finds no switched-off kind through ResourceApi, as kube's in-server clients get 404", async () => {
    const clusterRoles = { group: "rbac.authorization.k8s.io", version: "v1", resource: "clusterroles" };
    expect(server.resources.kinds.servedKind(clusterRoles.group, clusterRoles.version, clusterRoles.resource)).toBe(
      undefined,
    );
    const record = byGroupVersionResource(kinds, clusterRoles.group, clusterRoles.version, clusterRoles.resource);
    if (record === undefined) throw new Error("the table has no clusterroles");
    const reference = kindReference(record);
    await expect(server.resources.list({ kind: reference })).rejects.toMatchObject({
      code: 404,
      message: "the server could not find the requested resource",
    });
  });

  it("serves the admin, writes without admission policies and is never ready, as kube-apiserver with RBAC's API off", async () => {
    const created = await server.request({
      method: "POST",
      path: "/api/v1/namespaces/default/configmaps",
      body: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "c" } },
    });
    expect(created.status).toBe(201);
    const ready = await server.request({ path: "/readyz?verbose" });
    expect(ready.status).toBe(500);
    expect(await ready.text()).toContain("[-]informer-sync failed: reason withheld");
    // The RBAC index keeps trying to list, as kube-apiserver's informers do ("Failed to watch … could not find").
    expect(logged).toContain(
      "RBAC clusterroles: watching clusterroles failed: the server could not find the requested resource",
    );
  });
});

describe("a server started with a resource turned off", () => {
  let server: InProcessServer;
  beforeAll(async () => {
    server = await startServer({
      listen: false,
      controllers: false,
      runtimeConfig: parseRuntimeConfig(
        "apps/v1/deployments=false,storage.k8s.io/v1beta1/volumeattributesclasses=true",
      ),
    });
  });
  afterAll(() => server.close());
  const json = async (path: string) => (await (await server.request({ path })).json()) as Record<string, unknown>;
  const names = (list: Record<string, unknown>) => (list.resources as { name: string }[]).map((r) => r.name);

  it("answers 404 for the resource and its subresources, and serves the rest of its group/version", async () => {
    for (const path of [
      "/apis/apps/v1/deployments",
      "/apis/apps/v1/namespaces/default/deployments",
      "/apis/apps/v1/namespaces/default/deployments/d/scale",
    ]) {
      const res = await server.request({ path });
      expect(res.status).toBe(404);
      // kube-apiserver's answer for a resource its served group/version does not have (it adds `details: {}`).
      expect(await res.json()).toMatchObject({
        kind: "Status",
        status: "Failure",
        message: "the server could not find the requested resource",
        reason: "NotFound",
        code: 404,
      });
    }
    expect((await server.request({ path: "/apis/apps/v1/namespaces/default/replicasets" })).status).toBe(200);
  });

  it("drops the resource from discovery and OpenAPI", async () => {
    const apps = names(await json("/apis/apps/v1"));
    expect(apps).not.toContain("deployments");
    expect(apps).not.toContain("deployments/scale");
    expect(apps).toContain("replicasets");
    const v2 = Object.keys((await json("/openapi/v2")).paths as Record<string, unknown>);
    expect(v2.filter((p) => p.includes("/deployments"))).toEqual([]);
    expect(v2).toContain("/apis/apps/v1/namespaces/{namespace}/replicasets");
    const v3 = Object.keys((await json("/openapi/v3/apis/apps/v1")).paths as Record<string, unknown>);
    expect(v3.filter((p) => p.includes("/deployments"))).toEqual([]);
    expect(v3).toContain("/apis/apps/v1/namespaces/{namespace}/replicasets");
  });

  it("serves a version off by default with just the resource turned on", async () => {
    expect(names(await json("/apis/storage.k8s.io/v1beta1"))).toEqual(["volumeattributesclasses"]);
    expect((await server.request({ path: "/apis/storage.k8s.io/v1beta1/volumeattributesclasses" })).status).toBe(200);
  });
});
