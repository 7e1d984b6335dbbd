// The WebhookAdmissionConfiguration: its kubeconfig's users are the credentials kapi presents to webhook
// hosts (by `host:port`, `*.<domain>`, the host alone on 443, `*`, then the current context's user), and a
// bad configuration stops the plugin with kube's startup error.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { AdmissionMetrics } from "../../../../runtime/admission/admission-metrics.js";
import { credentialsResolver } from "../../../../runtime/admission/webhook/webhook-credentials.js";
import { validatingAdmissionWebhook } from "../../../../runtime/admission/webhook/webhook-plugins.js";
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

const pluginConfig = (text: string) => ({ text, source: "/etc/kapi/admission.yaml" });
const webhookAdmission = (file: string) =>
  `apiVersion: apiserver.config.k8s.io/v1\nkind: WebhookAdmissionConfiguration\nkubeConfigFile: ${file}\n`;

describe("webhook client credentials", () => {
  let dir: string;
  let kapi: WebhookServerUnderTest;
  let hook: AdmissionWebhookServer;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "kapi-webhook-credentials-"));
    hook = await startAdmissionWebhookServer(["creds.b-creds.svc"]);
    const kubeconfig = join(dir, "webhooks.kubeconfig");
    writeFileSync(join(dir, "token"), "file-token");
    writeFileSync(
      kubeconfig,
      stringify({
        apiVersion: "v1",
        kind: "Config",
        users: [
          {
            name: `127.0.0.1:${hook.port}`,
            user: {
              "client-certificate-data": Buffer.from(hook.clientCertificate.cert).toString("base64"),
              "client-key-data": Buffer.from(hook.clientCertificate.key).toString("base64"),
            },
          },
          { name: "*.b-creds.svc", user: { tokenFile: "token" } },
        ],
      }),
    );
    kapi = await startKapiWithWebhooks(pluginConfig(webhookAdmission(kubeconfig)));
    await kapi.server.request({
      method: "POST",
      path: "/api/v1/namespaces",
      body: { apiVersion: "v1", kind: "Namespace", metadata: { name: "b-creds" } },
    });
    await kapi.server.request({
      method: "POST",
      path: "/api/v1/namespaces/b-creds/services",
      body: {
        apiVersion: "v1",
        kind: "Service",
        metadata: { name: "creds", namespace: "b-creds" },
        spec: { ports: [{ name: "https", port: 443, targetPort: hook.port }] },
      },
    });
    await kapi.server.request({
      method: "POST",
      path: "/api/v1/namespaces/b-creds/endpoints",
      body: {
        apiVersion: "v1",
        kind: "Endpoints",
        metadata: { name: "creds", namespace: "b-creds" },
        subsets: [{ addresses: [{ ip: "127.0.0.1" }], ports: [{ name: "https", port: hook.port }] }],
      },
    });
    await register(kapi.server, "validating", "b-credentials", [
      configMapWebhook(hook, "by-url.b.example.com", "by-url"),
      configMapWebhook(hook, "by-service.b.example.com", "by-service", {
        clientConfig: {
          service: { namespace: "b-creds", name: "creds", path: "/by-service" },
          caBundle: hook.caBundle,
        },
      }),
    ]);
  });
  afterAll(async () => {
    await kapi.server.close();
    await hook.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("presents the client certificate of the user named by the webhook's host and port", async () => {
    expect((await createConfigMap(kapi.server, configMap("by-url", "by-url"))).status).toBe(201);
    const call = hook.calls.find((c) => c.path.startsWith("/by-url"));
    expect(call?.clientCommonName).toBe("kapi-webhook-client");
    expect(call?.headers.authorization).toBeUndefined();
  });

  it("sends the token of the `*.<namespace>.svc` user to a service", async () => {
    expect((await createConfigMap(kapi.server, configMap("by-service", "by-service"))).status).toBe(201);
    const call = hook.calls.find((c) => c.path.startsWith("/by-service"));
    expect(call?.headers.authorization).toBe("Bearer file-token");
    expect(call?.clientCommonName).toBeUndefined();
  });

  it("matches users by host:port, wildcard domains, the host alone on 443, `*`, then the current context", () => {
    const kubeconfig = join(dir, "order.kubeconfig");
    const user = (token: string) => ({ token });
    writeFileSync(
      kubeconfig,
      stringify({
        "current-context": "ctx",
        contexts: [{ name: "ctx", context: { user: "current" } }],
        users: [
          { name: "exact.example.com:8443", user: user("exact") },
          { name: "*.example.com", user: user("wild") },
          { name: "plain.test", user: user("plain") },
          { name: "*.svc", user: user("svc") },
          { name: "current", user: user("current") },
        ],
      }),
    );
    const resolve = credentialsResolver(pluginConfig(webhookAdmission(kubeconfig)));
    expect(resolve("exact.example.com:8443").token).toBe("exact");
    expect(resolve("other.example.com:443").token).toBe("wild");
    // Wildcards take the port with them: `*.example.com` names no host on 8443.
    expect(resolve("other.example.com:8443").token).toBe("current");
    expect(resolve("plain.test:443").token).toBe("plain");
    expect(resolve("plain.test:8443").token).toBe("current");
    expect(resolve("hook.ns.svc:443").token).toBe("svc");
  });

  it("refuses a configuration kube refuses, with kube's startup text", () => {
    const context = (text: string) => ({
      resources: kapi.server.resources,
      authorizer: () => ({
        authorize: () => ({ decision: "allow" as const, reason: "" }),
        rulesFor: () => ({ resourceRules: [], nonResourceRules: [], incomplete: false }),
      }),
      config: pluginConfig(text),
      metrics: new AdmissionMetrics(),
      log: () => {},
    });
    expect(() => validatingAdmissionWebhook(context(webhookAdmission("relative/kubeconfig")))).toThrow(
      'kubeConfigFile: Invalid value: "relative/kubeconfig": must be an absolute file path',
    );
    expect(() =>
      validatingAdmissionWebhook(context("apiVersion: apiserver.config.k8s.io/v1\nkind: WebhookAdmission\n")),
    ).toThrow(
      'no kind "WebhookAdmission" is registered for version "apiserver.config.k8s.io/v1" in scheme "k8s.io/apiserver/pkg/admission/plugin/webhook/config/kubeconfig.go:34"',
    );
    expect(() => validatingAdmissionWebhook(context(`${webhookAdmission("/x")}kubeconfigFile: /y\n`))).toThrow(
      'strict decoding error: unknown field "kubeconfigFile"',
    );
  });
});
