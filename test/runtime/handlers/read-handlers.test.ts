// What a get refuses before reading: the `export` parameter kube removed in v1.14 (unless it reads as false;
// lists ignore it), and a name that cannot be a path segment, which every verb naming an object refuses.
// Every answer below was checked against kube-apiserver v1.36.2.
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../../runtime/index.js";

const token = "read-handlers-token";
const configMaps = "/api/v1/namespaces/h4/configmaps";
const deployments = "/apis/apps/v1/namespaces/h4/deployments";
const exportRemoved = "the export parameter, deprecated since v1.14, is no longer supported";

describe("get", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ insecure: true, adminToken: token, controllers: false });
    await call("POST", "/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: "h4" } });
    await call("POST", configMaps, { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "c" } });
    const labels = { app: "d" };
    const container = { name: "c", image: "nginx" };
    await call("POST", deployments, {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "d" },
      spec: {
        selector: { matchLabels: labels },
        template: { metadata: { labels }, spec: { containers: [container] } },
      },
    });
  });
  afterAll(() => server.close());

  /** node:http given a path sends it as written; fetch, or a URL, would resolve `%2e` segments away. */
  function call(
    method: string,
    path: string,
    body?: unknown,
    contentType = "application/json",
  ): Promise<{ status: number; message: string | undefined }> {
    return new Promise((resolve, reject) => {
      const { hostname, port } = new URL(server.url);
      const headers = { authorization: `Bearer ${token}`, "content-type": contentType };
      const req = request({ hostname, port, path, method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const status = JSON.parse(Buffer.concat(chunks).toString()) as { message?: string };
          resolve({ status: res.statusCode ?? 0, message: status.message });
        });
      });
      req.on("error", reject);
      req.end(body === undefined ? undefined : JSON.stringify(body));
    });
  }

  it.each(["export=x", "export", "export=true&export=false"])("refuses ?%s on a get", async (query) => {
    expect(await call("GET", `${configMaps}/c?${query}`)).toEqual({ status: 400, message: exportRemoved });
  });

  it.each(["export=false", "export=0", "export=FALSE"])("serves ?%s, which reads as false", async (query) => {
    expect((await call("GET", `${configMaps}/c?${query}`)).status).toBe(200);
  });

  it("refuses export on the status and scale subresources, and not on a list", async () => {
    expect(await call("GET", `${deployments}/d/status?export=true`)).toEqual({ status: 400, message: exportRemoved });
    expect(await call("GET", `${deployments}/d/scale?export=true`)).toEqual({ status: 400, message: exportRemoved });
    expect((await call("GET", `${configMaps}?export=true`)).status).toBe(200);
  });

  it.each([
    ["GET", `${configMaps}/%2e`, `Name parameter invalid: ".": may not be '.'`],
    ["GET", `${configMaps}/%2e%2e`, `Name parameter invalid: "..": may not be '..'`],
    ["GET", `${configMaps}/a%25b`, `Name parameter invalid: "a%b": may not contain '%'`],
    ["DELETE", `${configMaps}/%2e?dryRun=All`, `Name parameter invalid: ".": may not be '.'`],
    ["PATCH", `${configMaps}/%2e?dryRun=All`, `Name parameter invalid: ".": may not be '.'`],
    ["GET", `${deployments}/%2e/scale`, `Name parameter invalid: ".": may not be '.'`],
  ])("refuses %s %s, a name no object can have", async (method, path, message) => {
    const patch = method === "PATCH";
    expect(
      await call(method, path, patch ? {} : undefined, patch ? "application/merge-patch+json" : undefined),
    ).toEqual({
      status: 400,
      message,
    });
  });

  it("refuses such a name on an update too", async () => {
    const named = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "." } };
    expect(await call("PUT", `${configMaps}/%2e?dryRun=All`, named)).toEqual({
      status: 400,
      message: `Name parameter invalid: ".": may not be '.'`,
    });
  });
});
