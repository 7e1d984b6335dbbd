// A CRD whose conversion webhook is registered by service, as kubebuilder and cert-manager register it: kapi
// reaches the webhook through the Service's port and a ready address of its EndpointSlices (the resolver
// admission webhooks use), and a service it cannot reach fails the read with the resolver's reason.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../../../runtime/index.js";
import { eventually } from "../../controllers/controller-harness.js";
import { type ConversionWebhook, renamingConverter, startConversionWebhook } from "./conversion-webhook-server.js";

const token = "service-conversion-token";
const namespace = "webhooks";

/** A CronTab definition in `group` (v1 stored, v2 served too) converted by the service `service`. */
function definition(group: string, service: { name: string; port?: number }, caBundle: string) {
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
    metadata: { name: `crontabs.${group}` },
    spec: {
      group,
      scope: "Namespaced",
      names: { plural: "crontabs", singular: "crontab", kind: "CronTab" },
      conversion: {
        strategy: "Webhook",
        webhook: {
          conversionReviewVersions: ["v1"],
          clientConfig: { service: { namespace, path: "/convert", ...service }, caBundle },
        },
      },
      versions: [version("v1", true, "cronSpec"), version("v2", false, "schedule")],
    },
  };
}

const items = (group: string, version: string) => `/apis/${group}/${version}/namespaces/${namespace}/crontabs`;

describe("conversion webhooks registered by service", () => {
  let server: RunningServer;
  let webhook: ConversionWebhook;

  async function call(method: string, path: string, body?: unknown) {
    const res = await fetch(server.url + path, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  async function create(path: string, body: unknown): Promise<void> {
    const answer = await call("POST", path, body);
    if (answer.status !== 201) throw new Error(`${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  }

  async function defineAndStore(group: string, service: { name: string; port?: number }): Promise<void> {
    await create(
      "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
      definition(group, service, webhook.caBundle),
    );
    await eventually(async () => expect((await call("GET", items(group, "v1"))).status).toBe(200));
    await create(items(group, "v1"), {
      apiVersion: `${group}/v1`,
      kind: "CronTab",
      metadata: { name: "nightly" },
      spec: { cronSpec: "0 0 * * *" },
    });
  }

  const service = (name: string, port: number) => ({
    apiVersion: "v1",
    kind: "Service",
    metadata: { name, namespace },
    spec: { ports: [{ name: "https", port, targetPort: webhook.port }] },
  });

  beforeAll(async () => {
    webhook = await startConversionWebhook(renamingConverter());
    server = await startServer({ insecure: true, adminToken: token, controllers: false });
    await create("/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: namespace } });
    await create(`/api/v1/namespaces/${namespace}/services`, service("convert", 8443));
    await create(`/apis/discovery.k8s.io/v1/namespaces/${namespace}/endpointslices`, {
      apiVersion: "discovery.k8s.io/v1",
      kind: "EndpointSlice",
      metadata: { name: "convert-1", namespace, labels: { "kubernetes.io/service-name": "convert" } },
      addressType: "IPv4",
      ports: [{ name: "https", port: webhook.port, protocol: "TCP" }],
      endpoints: [{ addresses: ["127.0.0.1"], conditions: { ready: true } }],
    });
    await create(`/api/v1/namespaces/${namespace}/services`, service("idle", 443));
  });
  afterAll(async () => {
    await server?.close();
  });

  it("converts stored objects through the service's endpoint, both ways", async () => {
    const group = "stable.example.com";
    await defineAndStore(group, { name: "convert", port: 8443 });
    const read = await call("GET", `${items(group, "v2")}/nightly`);
    expect([read.status, read.body.apiVersion, read.body.spec]).toEqual([
      200,
      `${group}/v2`,
      { schedule: "0 0 * * *" },
    ]);
    await create(items(group, "v2"), {
      apiVersion: `${group}/v2`,
      kind: "CronTab",
      metadata: { name: "weekly" },
      spec: { schedule: "0 0 * * 0" },
    });
    const stored = await call("GET", `${items(group, "v1")}/weekly`);
    expect([stored.status, stored.body.apiVersion, stored.body.spec]).toEqual([
      200,
      `${group}/v1`,
      { cronSpec: "0 0 * * 0" },
    ]);
    expect(webhook.hosts.length).toBeGreaterThanOrEqual(2);
    expect(new Set(webhook.hosts)).toEqual(new Set(["convert.webhooks.svc:8443"]));
  });

  // The reference (kube-apiserver v1.36.2) answers a missing service as below, on a GET of the object and of
  // the list alike. It routes to a Service's cluster IP, which has no endpoint to refuse; "no endpoints
  // available" is the text of kube's endpoint resolver, which kapi uses as for admission webhooks.
  it.each([
    [
      "without endpoints",
      "idle.example.com",
      "idle",
      'Post "https://idle.webhooks.svc:443/convert?timeout=30s": no endpoints available for service "idle"',
    ],
    [
      "that does not exist",
      "missing.example.com",
      "missing",
      'Post "https://missing.webhooks.svc:443/convert?timeout=30s": service "missing" not found',
    ],
  ])("fails reads through a service %s with the resolver's reason", async (_, group, name, reason) => {
    await defineAndStore(group, { name });
    const failed = {
      status: 500,
      body: {
        kind: "Status",
        apiVersion: "v1",
        metadata: {},
        status: "Failure",
        message: `conversion webhook for ${group}/v1, Kind=CronTab failed: ${reason}`,
        code: 500,
      },
    };
    expect(await call("GET", `${items(group, "v2")}/nightly`)).toEqual(failed);
    // A list of one object is worded with the object's kind, as the reference words it.
    expect(await call("GET", items(group, "v2"))).toEqual(failed);
  });
});
