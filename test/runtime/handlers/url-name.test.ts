// An update's body must name the object the URL names, in no other namespace: the whole-object writes
// (update, the scale subresource) check it as kube's update handler does, with its 400s. Every answer below
// was checked against kube-apiserver v1.36.2.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkUrlName } from "../../../runtime/handlers/url-name.js";
import { type RunningServer, startServer } from "../../../runtime/index.js";

const token = "url-name-token";
const deployment = "/apis/apps/v1/namespaces/h4/deployments/d";
const configMap = "/api/v1/namespaces/h4/configmaps/c";

describe("checkUrlName", () => {
  const target = { namespace: "h4", name: "c" } as Parameters<typeof checkUrlName>[1];

  it("takes a body naming the URL's object, with or without the namespace", () => {
    expect(() => checkUrlName({ metadata: { name: "c" } }, target)).not.toThrow();
    expect(() => checkUrlName({ metadata: { name: "c", namespace: "h4" } }, target)).not.toThrow();
  });

  it("refuses a body without a name, with another name or in another namespace", () => {
    expect(() => checkUrlName({ metadata: {} }, target)).toThrow(
      "the name of the object (c based on URL) was undeterminable: name must be provided",
    );
    expect(() => checkUrlName({}, target)).toThrow("was undeterminable");
    expect(() => checkUrlName({ metadata: { name: "d" } }, target)).toThrow(
      "the name of the object (d) does not match the name on the URL (c)",
    );
    expect(() => checkUrlName({ metadata: { name: "c", namespace: "other" } }, target)).toThrow(
      "the namespace of the provided object does not match the namespace sent on the request",
    );
  });
});

describe("the name in an update's body", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ insecure: true, adminToken: token, controllers: false });
    await call("POST", "/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: "h4" } });
    await call("POST", "/api/v1/namespaces/h4/configmaps", {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "c" },
    });
    const labels = { app: "d" };
    await call("POST", "/apis/apps/v1/namespaces/h4/deployments", {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "d" },
      spec: {
        selector: { matchLabels: labels },
        template: { metadata: { labels }, spec: { containers: [{ name: "c", image: "nginx" }] } },
      },
    });
  });
  afterAll(() => server.close());

  async function call(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; message: string | undefined }> {
    const res = await fetch(server.url + path, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, message: ((await res.json()) as { message?: string }).message };
  }

  const scale = (metadata: Record<string, string>) => ({
    apiVersion: "autoscaling/v1",
    kind: "Scale",
    metadata,
    spec: { replicas: 2 },
  });

  it("refuses a ConfigMap update without a name", async () => {
    expect(await call("PUT", `${configMap}?dryRun=All`, { apiVersion: "v1", kind: "ConfigMap", metadata: {} })).toEqual(
      {
        status: 400,
        message: "the name of the object (c based on URL) was undeterminable: name must be provided",
      },
    );
  });

  it.each([
    [{}, "the name of the object (d based on URL) was undeterminable: name must be provided"],
    [{ name: "other" }, "the name of the object (other) does not match the name on the URL (d)"],
    [
      { name: "d", namespace: "other" },
      "the namespace of the provided object does not match the namespace sent on the request",
    ],
  ])("refuses a Scale with metadata %j", async (metadata, message) => {
    expect(await call("PUT", `${deployment}/scale?dryRun=All`, scale(metadata))).toEqual({ status: 400, message });
  });

  it("takes a Scale that names the deployment", async () => {
    expect((await call("PUT", `${deployment}/scale?dryRun=All`, scale({ name: "d" }))).status).toBe(200);
  });
});
