// What the webhook admission tests share: a local HTTPS admission webhook (its own CA, a serving certificate
// for 127.0.0.1 and the names given, a client certificate from the same CA) that answers each path with a
// handler's reply, and a kapi server with the two webhook plugins added to its admission.
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import type { TLSSocket } from "node:tls";
import type { Authorizer } from "../../../../runtime/access/authorizer.js";
import type { AdmissionPlugin } from "../../../../runtime/admission/admission.js";
import { admissionPluginNames } from "../../../../runtime/admission/admission-chain.js";
import { AdmissionMetrics } from "../../../../runtime/admission/admission-metrics.js";
import type { PluginConfig } from "../../../../runtime/admission/plugin-context.js";
import {
  mutatingAdmissionWebhook,
  validatingAdmissionWebhook,
} from "../../../../runtime/admission/webhook/webhook-plugins.js";
import { createServingCertificates, issueClientCertificate } from "../../../../runtime/http/certificates.js";
import { type InProcessServer, startServer } from "../../../../runtime/index.js";

export interface Review {
  apiVersion: string;
  kind: string;
  request: Record<string, unknown> & { uid: string; object?: Record<string, unknown> | null };
}

/** A handler's answer: the review's `response` fields (uid and apiVersion are filled in), or a raw answer. */
export interface Reply {
  response?: Record<string, unknown>;
  status?: number;
  raw?: string;
  contentType?: string;
  delayMs?: number;
}

export interface Call {
  path: string;
  review: Review;
  headers: Record<string, string | string[] | undefined>;
  clientCommonName?: string;
}

export interface AdmissionWebhookServer {
  port: number;
  /** Base64 PEM of the CA, for a clientConfig's caBundle. */
  caBundle: string;
  calls: Call[];
  /** A client certificate (CN `kapi-webhook-client`) from the server's CA. */
  clientCertificate: { cert: string; key: string };
  /** Answers requests to `path` (its query stripped); unknown paths allow. */
  handle(path: string, handler: (review: Review, call: Call) => Reply): void;
  close(): Promise<void>;
}

/** Serves on `host` (127.0.0.1 unless given) with a certificate for localhost, 127.0.0.1 and `dns`. */
export async function startAdmissionWebhookServer(
  dns: string[] = [],
  host = "127.0.0.1",
): Promise<AdmissionWebhookServer> {
  const certs = createServingCertificates({ dns: ["localhost", ...dns], ips: ["127.0.0.1"] });
  const handlers = new Map<string, (review: Review, call: Call) => Reply>();
  const calls: Call[] = [];
  const server = createServer(
    { cert: certs.cert, key: certs.key, ca: certs.caCert, requestCert: true, rejectUnauthorized: false },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", async () => {
        const review = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Review;
        const path = (req.url ?? "").split("?")[0] ?? "";
        const peer = (req.socket as TLSSocket).getPeerCertificate();
        const call: Call = {
          path: req.url ?? "",
          review,
          headers: req.headers,
          ...(peer?.subject?.CN === undefined ? {} : { clientCommonName: String(peer.subject.CN) }),
        };
        calls.push(call);
        const reply = handlers.get(path)?.(review, call) ?? { response: { allowed: true } };
        if (reply.delayMs !== undefined) await new Promise((r) => setTimeout(r, reply.delayMs));
        if (res.destroyed) return;
        res.writeHead(reply.status ?? 200, { "content-type": reply.contentType ?? "application/json" });
        res.end(
          reply.raw ??
            JSON.stringify({
              apiVersion: review.apiVersion,
              kind: "AdmissionReview",
              response: { uid: review.request.uid, ...reply.response },
            }),
        );
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    caBundle: Buffer.from(certs.caCert).toString("base64"),
    calls,
    clientCertificate: issueClientCertificate(
      { cert: certs.caCert, key: certs.caKey as string },
      { commonName: "kapi-webhook-client" },
    ),
    handle: (path, handler) => handlers.set(path, handler),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const allowAll: Authorizer = {
  authorize: () => ({ decision: "allow", reason: "" }),
  rulesFor: () => ({ resourceRules: [], nonResourceRules: [], incomplete: false }),
};

export interface WebhookServerUnderTest {
  server: InProcessServer;
  metrics: AdmissionMetrics;
  plugins: AdmissionPlugin[];
}

const webhookPlugins = ["MutatingAdmissionWebhook", "ValidatingAdmissionWebhook"];

/**
 * The server's own webhook plugins off, when its chain has them: the tests add theirs, built with a
 * configuration and metrics of their own.
 */
export const withoutChainWebhooks = admissionPluginNames.includes(webhookPlugins[0] as string)
  ? { admission: { disablePlugins: webhookPlugins } }
  : {};

/** A kapi server (no listener) whose admission calls webhooks; `config` is the plugins' configuration. */
export async function startKapiWithWebhooks(config?: PluginConfig): Promise<WebhookServerUnderTest> {
  const server = await startServer({ listen: false, ...withoutChainWebhooks });
  const metrics = new AdmissionMetrics();
  const context = { resources: server.resources, authorizer: () => allowAll, config, metrics, log: () => {} };
  const plugins = [mutatingAdmissionWebhook(context), validatingAdmissionWebhook(context)];
  for (const plugin of plugins) server.resources.addAdmission(plugin);
  return { server, metrics, plugins };
}

export type WebhookType = "mutating" | "validating";

/** Creates a webhook configuration through the API and returns its name. */
export async function register(
  server: InProcessServer,
  type: WebhookType,
  name: string,
  webhooks: Record<string, unknown>[],
): Promise<void> {
  const kind = type === "mutating" ? "MutatingWebhookConfiguration" : "ValidatingWebhookConfiguration";
  const response = await server.request({
    method: "POST",
    path: `/apis/admissionregistration.k8s.io/v1/${kind.toLowerCase()}s`,
    body: { apiVersion: "admissionregistration.k8s.io/v1", kind, metadata: { name }, webhooks },
  });
  if (response.status !== 201) throw new Error(`registering ${name}: ${response.status} ${await response.text()}`);
}

export async function unregister(server: InProcessServer, type: WebhookType, name: string): Promise<void> {
  const kind = type === "mutating" ? "mutatingwebhookconfigurations" : "validatingwebhookconfigurations";
  await server.request({ method: "DELETE", path: `/apis/admissionregistration.k8s.io/v1/${kind}/${name}` });
}

/** A webhook on config maps labelled `case=<label>`, called at `path` on the test's webhook server. */
export function configMapWebhook(
  hook: AdmissionWebhookServer,
  name: string,
  label: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    name,
    clientConfig: { url: `https://127.0.0.1:${hook.port}/${label}`, caBundle: hook.caBundle },
    rules: [
      { operations: ["CREATE", "UPDATE", "DELETE"], apiGroups: [""], apiVersions: ["v1"], resources: ["configmaps"] },
    ],
    objectSelector: { matchLabels: { case: label } },
    sideEffects: "None",
    admissionReviewVersions: ["v1"],
    timeoutSeconds: 5,
    ...extra,
  };
}

export function configMap(name: string, label: string, namespace = "default"): Record<string, unknown> {
  return {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name, namespace, labels: { case: label } },
    data: { a: "b" },
  };
}

export async function createConfigMap(
  server: InProcessServer,
  body: Record<string, unknown>,
  query = "",
): Promise<{ status: number; body: Record<string, unknown>; warnings: string | null }> {
  const namespace = (body.metadata as { namespace: string }).namespace;
  const response = await server.request({
    method: "POST",
    path: `/api/v1/namespaces/${namespace}/configmaps${query}`,
    body,
  });
  return {
    status: response.status,
    body: (await response.json()) as Record<string, unknown>,
    warnings: response.headers.get("warning"),
  };
}

/** Polls until `done` holds (a configuration change reaching the watch cache). */
export async function until(done: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 500 && !(await done()); i++) await new Promise((r) => setTimeout(r, 10));
}
