import { X509Certificate } from "node:crypto";
import { request } from "node:https";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import apisDocument from "../../../generated/discovery/apis.js";
import { type RunningServer, startServer } from "../../../runtime/index.js";

const token = "secret-token";

function caFrom(kubeconfig: string): string {
  const data = /certificate-authority-data: (\S+)/.exec(kubeconfig)?.[1] ?? "";
  return Buffer.from(data, "base64").toString();
}

describe("startServer over plain HTTP", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ insecure: true, adminToken: token });
  });
  afterAll(() => server.close());

  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(server.url + path, { headers: { authorization: `Bearer ${token}`, ...headers } });

  it("writes a kubeconfig with the URL and the admin token", () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.kubeconfig).toContain(`server: ${server.url}\n`);
    expect(server.kubeconfig).toContain(`token: ${token}\n`);
  });

  it("answers 401 to a wrong token and serves anonymous requests as the default roles allow", async () => {
    const wrong = await fetch(`${server.url}/version`, { headers: { authorization: "Bearer wrong" } });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ kind: "Status", reason: "Unauthorized", code: 401 });
    expect((await fetch(`${server.url}/version`)).status).toBe(200);
    const pods = await fetch(`${server.url}/api/v1/namespaces/default/pods`);
    expect(pods.status).toBe(403);
    expect(((await pods.json()) as { message: string }).message).toBe(
      'pods is forbidden: User "system:anonymous" cannot list resource "pods" in API group "" in the namespace "default"',
    );
  });

  it("serves /version", async () => {
    const res = await get("/version");
    expect(await res.json()).toMatchObject({ major: "1", minor: "36", gitVersion: "v1.36.2-kapi" });
  });

  it("serves /apis as the generated document, and aggregated discovery when asked", async () => {
    expect(await (await get("/apis")).json()).toEqual(apisDocument);
    const type = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";
    const res = await get("/apis", { accept: `${type},application/json` });
    expect(res.headers.get("content-type")).toBe(type);
    expect(await res.json()).toMatchObject({ kind: "APIGroupDiscoveryList", apiVersion: "apidiscovery.k8s.io/v2" });
  });

  it("answers 406 when Accept allows nothing offered", async () => {
    const res = await get("/apis", {
      accept: "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList",
    });
    expect(res.status).toBe(406);
    expect(await res.json()).toMatchObject({ reason: "NotAcceptable", code: 406 });
  });

  it("reports its address in /api", async () => {
    const doc = await (await get("/api")).json();
    expect(doc).toEqual({
      kind: "APIVersions",
      versions: ["v1"],
      serverAddressByClientCIDRs: [{ clientCIDR: "0.0.0.0/0", serverAddress: server.url.slice("http://".length) }],
    });
  });

  it("serves OpenAPI v3 documents by their index path and redirects a stale hash", async () => {
    const index = (await (await get("/openapi/v3")).json()) as { paths: Record<string, { serverRelativeURL: string }> };
    const apps = index.paths["apis/apps/v1"]?.serverRelativeURL ?? "";
    const res = await get(apps);
    expect(res.headers.get("cache-control")).toBe("public, immutable");
    expect(await res.json()).toMatchObject({ openapi: expect.any(String) });
    const stale = await fetch(`${server.url}/openapi/v3/apis/apps/v1?hash=0`, {
      headers: { authorization: `Bearer ${token}` },
      redirect: "manual",
    });
    expect(stale.status).toBe(301);
    expect(stale.headers.get("location")).toBe(apps);
    expect((await get("/openapi/v3/apis/nope/v1")).status).toBe(404);
  });

  it("answers a bad escape in the path with a 400 Status, as kube-apiserver's Go server refuses it", async () => {
    const res = await get("/api/v1/namespaces/%E0%A4%A/pods");
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/json");
  });
});

describe("startServer over HTTPS", () => {
  // Start-to-ready time is measured in bench/start.ts, not asserted here.
  it("serves with a certificate its kubeconfig's CA verifies", async () => {
    const server = await startServer({ adminToken: token });
    try {
      const ca = caFrom(server.kubeconfig);
      expect(new X509Certificate(ca).ca).toBe(true);
      // Over TLS the admin authenticates with a system:masters client certificate from the same CA.
      const cert = /client-certificate-data: (\S+)/.exec(server.kubeconfig)?.[1] ?? "";
      const admin = new X509Certificate(Buffer.from(cert, "base64"));
      expect(admin.subject).toBe("O=system:masters\nCN=kapi-admin");
      expect(admin.checkIssued(new X509Certificate(ca))).toBe(true);
      const body = await new Promise<string>((resolve, reject) => {
        const req = request(
          `${server.url}/readyz?verbose`,
          { ca, headers: { authorization: `Bearer ${token}` } },
          (res) => {
            let text = "";
            res.on("data", (c) => {
              text += c;
            });
            res.on("end", () => resolve(text));
          },
        );
        req.on("error", reject);
        req.end();
      });
      // Every check passes (health-checks.test.ts compares the list with kube's).
      expect(body).toMatch(/^\[\+\]ping ok\n(\[\+\]\S+ ok\n)+\[\+\]shutdown ok\nreadyz check passed\n$/);
    } finally {
      await server.close();
    }
  });
});
