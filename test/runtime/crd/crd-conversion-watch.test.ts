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

  /** The events of a watch until the server ends it (`timeoutSeconds`). */
  async function events(path: string): Promise<{ type: string; object: Record<string, unknown> }[]> {
    const { text } = await call("GET", path);
    return text
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line));
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

    const converted = await events(`${v2Items}?watch=true&timeoutSeconds=1`);
    expect(converted.map((e) => [e.type, e.object.apiVersion, e.object.spec])).toEqual([
      ["ADDED", "stable.example.com/v2", { schedule: "0 0 * * *" }],
    ]);

    failing = true;
    const refused = await events(`${v2Items}?watch=true&timeoutSeconds=1`);
    expect(refused).toHaveLength(1);
    expect(refused[0]?.type).toBe("ERROR");
    expect(refused[0]?.object).toMatchObject({ kind: "Status", status: "Failure", code: 500 });
    expect(refused[0]?.object).not.toHaveProperty("reason");
    expect(String(refused[0]?.object.message)).toContain(
      "conversion webhook for stable.example.com/v1, Kind=CronTab failed",
    );
  });
});
