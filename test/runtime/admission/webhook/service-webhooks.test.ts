// Webhooks registered by `service`: the Service's port leads to its EndpointSlices (or, with none, its
// Endpoints) and a ready address there, the serving certificate must name `<service>.<namespace>.svc`, and
// a Service that cannot be reached fails the call with the resolver's reason.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AdmissionWebhookServer,
  configMap,
  configMapWebhook,
  createConfigMap,
  register,
  startAdmissionWebhookServer,
  startKapiWithWebhooks,
  type WebhookServerUnderTest,
} from "./webhook-fixtures.js";

const namespace = "b-hooks";

describe("webhooks reached through a service", () => {
  let kapi: WebhookServerUnderTest;
  let hook: AdmissionWebhookServer;

  async function create(path: string, body: object): Promise<void> {
    const response = await kapi.server.request({ method: "POST", path, body });
    if (response.status !== 201) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  }

  function service(name: string, port: number, portName = "https"): object {
    return {
      apiVersion: "v1",
      kind: "Service",
      metadata: { name, namespace },
      spec: { ports: [{ name: portName, port, targetPort: hook.port }] },
    };
  }

  beforeAll(async () => {
    hook = await startAdmissionWebhookServer([
      "by-slice.b-hooks.svc",
      "by-endpoints.b-hooks.svc",
      "no-endpoints.b-hooks.svc",
    ]);
    kapi = await startKapiWithWebhooks();
    hook.handle("/deny", () => ({ response: { allowed: false, status: { message: "said the service" } } }));
    await create("/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: namespace } });
    await create(`/api/v1/namespaces/${namespace}/services`, service("by-slice", 443));
    await create(`/apis/discovery.k8s.io/v1/namespaces/${namespace}/endpointslices`, {
      apiVersion: "discovery.k8s.io/v1",
      kind: "EndpointSlice",
      metadata: { name: "by-slice-1", namespace, labels: { "kubernetes.io/service-name": "by-slice" } },
      addressType: "IPv4",
      ports: [{ name: "https", port: hook.port, protocol: "TCP" }],
      endpoints: [
        { addresses: ["127.0.0.2"], conditions: { ready: false } },
        { addresses: ["127.0.0.1"], conditions: { ready: true } },
      ],
    });
    await create(`/api/v1/namespaces/${namespace}/services`, service("by-endpoints", 8443, ""));
    await create(`/api/v1/namespaces/${namespace}/endpoints`, {
      apiVersion: "v1",
      kind: "Endpoints",
      metadata: { name: "by-endpoints", namespace },
      subsets: [{ addresses: [{ ip: "127.0.0.1" }], ports: [{ port: hook.port }] }],
    });
    await create(`/api/v1/namespaces/${namespace}/services`, service("no-endpoints", 443));
    await create(`/api/v1/namespaces/${namespace}/services`, service("wrong-name", 443));
    await create(`/api/v1/namespaces/${namespace}/endpoints`, {
      apiVersion: "v1",
      kind: "Endpoints",
      metadata: { name: "wrong-name", namespace },
      subsets: [{ addresses: [{ ip: "127.0.0.1" }], ports: [{ name: "https", port: hook.port }] }],
    });
    const byService = (name: string, label: string, port?: number) =>
      configMapWebhook(hook, `${label}.b.example.com`, label, {
        clientConfig: {
          service: { namespace, name, path: "/deny", ...(port === undefined ? {} : { port }) },
          caBundle: hook.caBundle,
        },
      });
    await register(kapi.server, "validating", "b-services", [
      byService("by-slice", "slice"),
      byService("by-endpoints", "endpoints", 8443),
      byService("missing", "missing"),
      byService("no-endpoints", "no-endpoints"),
      byService("by-slice", "no-port", 444),
      byService("wrong-name", "wrong-name"),
    ]);
  });
  afterAll(async () => {
    await kapi.server.close();
    await hook.close();
  });

  const failedCall = (label: string, url: string, reason: string) =>
    `Internal error occurred: failed calling webhook "${label}.b.example.com": failed to call webhook: Post "${url}": ${reason}`;

  it("calls a ready endpoint of the service's EndpointSlices, checking the certificate for the service's name", async () => {
    const answer = await createConfigMap(kapi.server, configMap("slice", "slice"));
    expect([answer.status, answer.body.message]).toEqual([
      400,
      'admission webhook "slice.b.example.com" denied the request: said the service',
    ]);
    const call = hook.calls.find((c) => c.path.startsWith("/deny"));
    expect(call?.path).toBe("/deny?timeout=5s");
    expect(call?.headers.host).toBe("by-slice.b-hooks.svc:443");
  });

  it("falls back to the service's Endpoints when it has no EndpointSlices", async () => {
    const answer = await createConfigMap(kapi.server, configMap("endpoints", "endpoints"));
    expect([answer.status, answer.body.message]).toEqual([
      400,
      'admission webhook "endpoints.b.example.com" denied the request: said the service',
    ]);
  });

  it("fails the call with the resolver's reason when the service cannot be reached", async () => {
    const cases: [string, string, string][] = [
      ["missing", "https://missing.b-hooks.svc:443/deny?timeout=5s", 'service "missing" not found'],
      [
        "no-endpoints",
        "https://no-endpoints.b-hooks.svc:443/deny?timeout=5s",
        'no endpoints available for service "no-endpoints"',
      ],
      [
        "no-port",
        "https://by-slice.b-hooks.svc:444/deny?timeout=5s",
        'no service port 444 found for service "by-slice"',
      ],
      [
        "wrong-name",
        "https://wrong-name.b-hooks.svc:443/deny?timeout=5s",
        "tls: failed to verify certificate: x509: certificate is valid for localhost, by-slice.b-hooks.svc, by-endpoints.b-hooks.svc, no-endpoints.b-hooks.svc, not wrong-name.b-hooks.svc",
      ],
    ];
    for (const [label, url, reason] of cases) {
      const answer = await createConfigMap(kapi.server, configMap(label, label));
      expect([answer.status, answer.body.message], label).toEqual([500, failedCall(label, url, reason)]);
    }
  });
});
