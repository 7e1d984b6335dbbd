// A watch of a version that needs the definition's conversion webhook: events arrive converted, and when the
// webhook fails the watch ends with the failure as an ERROR event (a Status without a reason, kube's 500).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../../runtime/index.js";
import { eventually } from "../controllers/controller-harness.js";
import { renamingConverter, startConversionWebhook } from "./conversion/conversion-webhook-server.js";

const token = "crd-conversion-watch-token";
const v1Items = "/apis/stable.example.com/v1/namespaces/default/crontabs";
const v2Items = "/apis/stable.example.com/v2/namespaces/default/crontabs";

function definition(origin: string, caBundle: string) {
  const version = (name: string, storage: boolean, field: string) => ({
    name,
    served: true,
    storage,
    schema: {
      openAPIV3Schema: {
        type: "object",
        properties: { spec: { type: "object", properties: { [field]: { type: "string" } } } },
      },
    },
  });
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "crontabs.stable.example.com" },
    spec: {
      group: "stable.example.com",
      scope: "Namespaced",
      names: { plural: "crontabs", singular: "crontab", kind: "CronTab" },
      conversion: {
        strategy: "Webhook",
        webhook: { conversionReviewVersions: ["v1"], clientConfig: { url: `${origin}/convert`, caBundle } },
      },
      versions: [version("v1", true, "cronSpec"), version("v2", false, "schedule")],
    },
  };
}

describe("watching a version converted by a webhook", () => {
  let server: RunningServer;

  async function call(method: string, path: string, body?: unknown) {
    const res = await fetch(server.url + path, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, text: await res.text() };
  }

  /** The first event of a watch, or undefined when the server ends it without one. */
  async function firstEvent(path: string): Promise<{ type: string; object: Record<string, unknown> } | undefined> {
    const stop = new AbortController();
    const res = await fetch(server.url + path, { headers: { authorization: `Bearer ${token}` }, signal: stop.signal });
    const decoder = new TextDecoder();
    let text = "";
    try {
      for await (const chunk of res.body ?? []) {
        text += decoder.decode(chunk as Uint8Array, { stream: true });
        const line = text.split("\n")[0];
        if (text.includes("\n") && line !== undefined) return JSON.parse(line);
      }
      return undefined;
    } finally {
      stop.abort();
    }
  }

  beforeAll(async () => {
    server = await startServer({ insecure: true, adminToken: token, controllers: false });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("sends converted events, then an ERROR event when the webhook fails", async () => {
    let failing = false;
    const converter = renamingConverter();
    const webhook = await startConversionWebhook((review) =>
      failing ? { status: 500, body: { message: "broken" } } : converter(review),
    );
    expect(
      (
        await call(
          "POST",
          "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
          definition(webhook.origin, webhook.caBundle),
        )
      ).status,
    ).toBe(201);
    await eventually(async () => expect((await call("GET", v2Items)).status).toBe(200));
    const cron = {
      apiVersion: "stable.example.com/v1",
      kind: "CronTab",
      metadata: { name: "nightly" },
      spec: { cronSpec: "0 0 * * *" },
    };
    expect((await call("POST", v1Items, cron)).status).toBe(201);

    const converted = await firstEvent(`${v2Items}?watch=true&timeoutSeconds=30`);
    expect([converted?.type, converted?.object.apiVersion, converted?.object.spec]).toEqual([
      "ADDED",
      "stable.example.com/v2",
      { schedule: "0 0 * * *" },
    ]);

    // A change after the failure starts: its event needs a conversion the webhook now refuses.
    const { text } = await call("GET", v1Items);
    const since = (JSON.parse(text) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
    failing = true;
    const weekly = { ...cron, metadata: { name: "weekly" }, spec: { cronSpec: "0 0 * * 0" } };
    expect((await call("POST", v1Items, weekly)).status).toBe(201);
    const refused = await firstEvent(`${v2Items}?watch=true&resourceVersion=${since}&timeoutSeconds=30`);
    expect(refused?.type).toBe("ERROR");
    expect(refused?.object).toMatchObject({ kind: "Status", status: "Failure", code: 500 });
    expect(refused?.object).not.toHaveProperty("reason");
    expect(String(refused?.object.message)).toContain(
      "conversion webhook for stable.example.com/v1, Kind=CronTab failed",
    );
  });
});
