// --runtime-config: parsing as kube-apiserver reads the flag, which group/versions it turns on and off, and a
// server started with it serving exactly that in routes, discovery and OpenAPI.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kinds } from "../../../generated/registry.js";
import { type InProcessServer, type RunningServer, startServer } from "../../../runtime/index.js";
import { kindReference } from "../../../runtime/registry/kinds.js";
import { byGroupVersionResource } from "../../../runtime/registry/lookup.js";
import { isEnabled, parseRuntimeConfig } from "../../../runtime/registry/runtime-config.js";

describe("parseRuntimeConfig", () => {
  it("reads key=value pairs, a bare key as true", () => {
    expect(parseRuntimeConfig("samples.kapi.dev/v1=true, batch/v1=false,api/alpha")).toEqual({
      "samples.kapi.dev/v1": true,
      "batch/v1": false,
      "api/alpha": true,
    });
    expect(parseRuntimeConfig("v1=false")).toEqual({ v1: false });
  });

  it("refuses values that are not booleans and keys that are not group/versions", () => {
    expect(() => parseRuntimeConfig("batch/v1=yes")).toThrow(
      'invalid value of batch/v1: yes, err: strconv.ParseBool: parsing "yes": invalid syntax',
    );
    expect(() => parseRuntimeConfig("batch=true")).toThrow("invalid key batch: expected <group>/<version>");
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
