// A JSON null as the value of a string map (labels, annotations, a selector's matchLabels, a ConfigMap's data)
// is decoded as "", as kube-apiserver v1.36.2's encoding/json decodes it: the reference stored
// `labels: {app: h, x: null}` as `{app: h, x: ""}` and served the Deployment's scale with selector `app=h,x=`.
// Before, kapi stored the null and every read of the scale answered 500 (hostile fuzz seed 2688632206).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { labelSelectorFromObject } from "../../../runtime/selection/label-selector-object.js";
import { type InProcessServer, startServer } from "../../../runtime/server/start-server.js";

const deployments = "/apis/apps/v1/namespaces/default/deployments";

describe("null values of string maps", () => {
  let server: InProcessServer;
  beforeAll(async () => {
    server = await startServer({ listen: false, controllers: false, log: () => {} });
  });
  afterAll(() => server?.close());

  const send = async (method: string, path: string, body?: string, contentType = "application/json") => {
    const response = await server.request({
      method,
      path,
      headers: { "content-type": contentType },
      ...(body === undefined ? {} : { body }),
    });
    return { status: response.status, body: JSON.parse(await response.text()) as Record<string, unknown> };
  };

  it("stores them as empty strings and serves the scale of a Deployment selecting on one", async () => {
    const created = await send(
      "POST",
      deployments,
      '{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"h-null","labels":{"app":"h","x":null},' +
        '"annotations":{"n":null}},"spec":{"replicas":0,"selector":{"matchLabels":{"app":"h","x":null}},' +
        '"template":{"metadata":{"labels":{"app":"h","x":null}},"spec":{"containers":[{"name":"w","image":"nginx"}]}}}}',
    );
    expect(created.status).toBe(201);
    const deployment = created.body as unknown as { metadata: Record<string, unknown>; spec: { selector: unknown } };
    expect(deployment.metadata.labels).toEqual({ app: "h", x: "" });
    expect(deployment.metadata.annotations).toEqual({ n: "" });
    expect(deployment.spec.selector).toEqual({ matchLabels: { app: "h", x: "" } });
    const scale = await send("GET", `${deployments}/h-null/scale`);
    expect(scale.status).toBe(200);
    expect(scale.body.status).toEqual({ replicas: 0, selector: "app=h,x=" });
    // The fuzzed request: a merge patch of the scale whose metadata is a list is the client's mistake.
    const patched = await send(
      "PATCH",
      `${deployments}/h-null/scale`,
      '{"metadata":[{"namespace":"default","labels":{"app":"h"}}],"spec":{"replicas":2}}',
      "application/merge-patch+json",
    );
    expect(patched.status).toBe(422);
  });

  it("reads a stored null selector value as the empty string rather than failing", () => {
    const parsed = labelSelectorFromObject({ matchLabels: { app: "h", x: null as unknown as string } });
    expect(parsed.ok).toBe(true);
  });
});
