// startServer's request(): requests answered by the server's own pipeline without a socket, on a server with
// no listener (`listen: false`) and on one that also listens, where both reach the same objects.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AuditEvent, type InProcessServer, startServer, watchEvents } from "../../../runtime/index.js";

const configMap = (name: string, data: Record<string, string> = {}) => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name },
  data,
});

describe("a server without a listener", () => {
  let server: InProcessServer;
  const errors: unknown[] = [];
  beforeAll(async () => {
    server = await startServer({ listen: false, log: (message, error) => errors.push([message, error]) });
  });
  afterAll(() => server.close());

  it("has no url or kubeconfig, and logs nothing at start", () => {
    expect("url" in server).toBe(false);
    expect("kubeconfig" in server).toBe(false);
    expect(errors).toEqual([]);
  });

  it("serves /version as the admin by default", async () => {
    const res = await server.request({ path: "/version" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.headers.get("content-length")).toBe(String((await res.clone().arrayBuffer()).byteLength));
    expect(await res.json()).toMatchObject({ major: "1", minor: "36", gitVersion: "v1.36.2-kapi" });
  });

  it("creates a ConfigMap from a JSON value and reads it back", async () => {
    const created = await server.request({
      method: "POST",
      path: "/api/v1/namespaces/default/configmaps",
      body: configMap("settings", { mode: "fast" }),
    });
    expect(created.status).toBe(201);
    const res = await server.request({ path: "/api/v1/namespaces/default/configmaps/settings" });
    expect(res.status).toBe(200);
    const read = (await res.json()) as { data: Record<string, string>; metadata: { managedFields: unknown[] } };
    expect(read.data).toEqual({ mode: "fast" });
    expect(read.metadata.managedFields).toHaveLength(1);
  });

  it("sends text and bytes as given, with the content type the headers name", async () => {
    const yaml = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-yaml\n";
    const fromYaml = await server.request({
      method: "POST",
      path: "/api/v1/namespaces/default/configmaps",
      headers: { "Content-Type": "application/yaml" },
      body: yaml,
    });
    expect(fromYaml.status).toBe(201);
    const patch = new TextEncoder().encode(JSON.stringify({ data: { patched: "yes" } }));
    const patched = await server.request({
      method: "PATCH",
      path: "/api/v1/namespaces/default/configmaps/from-yaml",
      headers: { "Content-Type": "application/merge-patch+json" },
      body: patch,
    });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({ data: { patched: "yes" } });
  });

  it("answers a bad body with a 400 Status", async () => {
    const res = await server.request({
      method: "POST",
      path: "/api/v1/namespaces/default/configmaps",
      headers: { "Content-Type": "application/json" },
      body: "{",
    });
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(await res.json()).toMatchObject({ kind: "Status", status: "Failure", reason: "BadRequest", code: 400 });
  });

  it("sends Warning headers", async () => {
    const res = await server.request({
      method: "POST",
      path: "/api/v1/namespaces/default/configmaps?dryRun=All&fieldValidation=Warn",
      body: { ...configMap("warned"), color: "blue" },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("warning")).toBe('299 - "unknown field \\"color\\""');
  });

  it("refuses a user without RBAC rights with kube's 403", async () => {
    const res = await server.request({ path: "/api/v1/namespaces/default/configmaps", user: { name: "jane" } });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({
      kind: "Status",
      reason: "Forbidden",
      message:
        'configmaps is forbidden: User "jane" cannot list resource "configmaps" in API group "" in the namespace "default"',
    });
    const admin = await server.request({
      path: "/api/v1/namespaces/default/configmaps",
      user: { name: "root", groups: ["system:masters"] },
    });
    expect(admin.status).toBe(200);
  });

  it("answers anonymous requests as the default roles allow", async () => {
    expect((await server.request({ path: "/version", anonymous: true })).status).toBe(200);
    const pods = await server.request({ path: "/api/v1/namespaces/default/pods", anonymous: true });
    expect(pods.status).toBe(403);
    expect(((await pods.json()) as { message: string }).message).toContain('User "system:anonymous"');
  });

  it("authenticates by the Authorization header given", async () => {
    const wrong = await server.request({ path: "/version", headers: { Authorization: "Bearer wrong" } });
    expect(wrong.status).toBe(401);
    const right = await server.request({ path: "/version", headers: { authorization: `Bearer ${server.adminToken}` } });
    expect(right.status).toBe(200);
  });

  it("answers HEAD without a body, and an unknown method with kube's 405", async () => {
    const head = await server.request({ method: "HEAD", path: "/version" });
    expect(head.status).toBe(200);
    expect(head.body).toBeNull();
    const unknown = await server.request({ method: "FOO", path: "/api/v1/namespaces/default/configmaps" });
    expect(unknown.status).toBe(405);
  });

  it("reports no address in /api and serves no issuer discovery", async () => {
    const api = await server.request({ path: "/api" });
    expect(await api.json()).toMatchObject({ serverAddressByClientCIDRs: [{ serverAddress: "" }] });
    expect((await server.request({ path: "/openid/v1/jwks" })).status).toBe(404);
  });

  it("streams a watch's events, and ends it when the body is cancelled", async () => {
    const list = await server.request({ path: "/api/v1/namespaces/default/configmaps" });
    const { resourceVersion } = ((await list.json()) as { metadata: { resourceVersion: string } }).metadata;
    const watch = await server.request({
      path: `/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${resourceVersion}`,
    });
    expect(watch.status).toBe(200);
    expect(watch.headers.get("transfer-encoding")).toBe("chunked");
    await server.request({ method: "POST", path: "/api/v1/namespaces/default/configmaps", body: configMap("seen") });
    for await (const event of watchEvents(watch)) {
      expect(event.type).toBe("ADDED");
      expect(event.object).toMatchObject({ kind: "ConfigMap", metadata: { name: "seen" } });
      break;
    }
    expect(watch.bodyUsed).toBe(true);
  });
});

describe("closing a server without a listener", () => {
  it("ends open watches, then refuses requests", async () => {
    const server = await startServer({ listen: false, controllers: false });
    const watch = await server.request({ path: "/api/v1/namespaces/default/configmaps?watch=1" });
    const events = (async () => {
      const seen: string[] = [];
      for await (const event of watchEvents(watch)) seen.push(event.type);
      return seen;
    })();
    await server.close();
    expect(await events).toEqual([]);
    await expect(server.request({ path: "/version" })).rejects.toThrow("kapi: the server is closed");
  });

  it("records audit events for its requests, with no source IP", async () => {
    const events: AuditEvent[] = [];
    const server = await startServer({ listen: false, controllers: false, audit: (event) => events.push(event) });
    try {
      const res = await server.request({ path: "/version", user: { name: "jane", groups: ["team"] } });
      expect(res.headers.get("audit-id")).toMatch(/^[0-9a-f-]{36}$/);
      await res.arrayBuffer();
      expect(events.map((event) => event.stage)).toEqual(["RequestReceived", "ResponseComplete"]);
      expect(events[1]).toMatchObject({
        requestURI: "/version",
        user: { username: "kapi-admin" },
        impersonatedUser: { username: "jane", groups: ["team", "system:authenticated"] },
        responseStatus: { code: 200 },
      });
      expect(events[1]).not.toHaveProperty("sourceIPs");
    } finally {
      await server.close();
    }
  });

  it("answers 401 to anonymous requests when anonymous authentication is off", async () => {
    const server = await startServer({ listen: false, controllers: false, authentication: { anonymousAuth: false } });
    try {
      const res = await server.request({ path: "/version", anonymous: true });
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ kind: "Status", reason: "Unauthorized", code: 401 });
    } finally {
      await server.close();
    }
  });
});

describe("request() on a listening server", () => {
  it("reaches the same objects as HTTP clients", async () => {
    const server = await startServer({ insecure: true, controllers: false });
    try {
      const created = await server.request({
        method: "POST",
        path: "/api/v1/namespaces/default/configmaps",
        body: configMap("shared"),
      });
      expect(created.status).toBe(201);
      const res = await fetch(`${server.url}/api/v1/namespaces/default/configmaps/shared`, {
        headers: { authorization: `Bearer ${server.adminToken}` },
      });
      expect(res.status).toBe(200);
      expect(server.kubeconfig).toContain(`server: ${server.url}\n`);
    } finally {
      await server.close();
    }
  });
});
