// ImagePolicyWebhook on a started server, driven over HTTP, against an HTTPS ImageReview backend in the
// test. kube-apiserver's texts here come from kube's source (plugin/pkg/admission/imagepolicy): the
// reference server runs with its own admission plugins, so it cannot be asked with this one switched on.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AdmissionMetrics } from "../../../../runtime/admission/admission-metrics.js";
import { imagePolicyWebhook } from "../../../../runtime/admission/image-policy/image-policy-webhook.js";
import type { AdmissionPluginContext } from "../../../../runtime/admission/plugin-context.js";
import { createServingCertificates } from "../../../../runtime/http/certificates.js";
import { type AuditEvent, type RunningServer, startServer } from "../../../../runtime/index.js";

const token = "image-policy-token";
const certificates = createServingCertificates({ dns: ["localhost"], ips: ["127.0.0.1"] });

interface Call {
  url: string;
  review: { apiVersion: string; kind: string; spec: Record<string, unknown> };
}

/** Allows any image but those with "bad" in their name; the first `failures` calls answer 500. */
class Backend {
  readonly calls: Call[] = [];
  failures = 0;
  readonly #server: Server;

  constructor() {
    this.#server = createServer({ cert: certificates.cert, key: certificates.key }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const review = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Call["review"];
        this.calls.push({ url: req.url ?? "", review });
        res.setHeader("content-type", "application/json");
        if (this.failures > 0) {
          this.failures--;
          res.statusCode = 500;
          res.end("{}");
          return;
        }
        const images = ((review.spec.containers ?? []) as { image?: string }[]).map((c) => c.image ?? "");
        const bad = images.filter((i) => i.includes("bad"));
        const silent = images.some((i) => i.includes("silent"));
        const status =
          bad.length === 0
            ? { allowed: true, auditAnnotations: { checked: String(images.length) } }
            : { allowed: false, ...(silent ? {} : { reason: `${bad.join(",")} not allowed` }) };
        res.end(JSON.stringify({ apiVersion: "imagepolicy.k8s.io/v1alpha1", kind: "ImageReview", status }));
      });
    });
  }

  listen(): Promise<number> {
    return new Promise((resolve) =>
      this.#server.listen(0, "127.0.0.1", () => resolve((this.#server.address() as AddressInfo).port)),
    );
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}

const dir = mkdtempSync(join(tmpdir(), "image-policy-"));

function kubeconfigFor(port: number, name: string): string {
  const path = join(dir, `${name}.kubeconfig`);
  const ca = Buffer.from(certificates.caCert).toString("base64");
  writeFileSync(
    path,
    [
      "apiVersion: v1",
      "kind: Config",
      "clusters:",
      "- name: backend",
      "  cluster:",
      `    server: https://127.0.0.1:${port}/review`,
      `    certificate-authority-data: ${ca}`,
      "users:",
      "- name: apiserver",
      "  user:",
      "    token: backend-token",
      "contexts:",
      "- name: default",
      "  context: {cluster: backend, user: apiserver}",
      "current-context: default",
      "",
    ].join("\n"),
  );
  return path;
}

function contextFor(server: RunningServer, text: string | undefined): AdmissionPluginContext {
  return {
    resources: server.resources,
    authorizer: () => {
      throw new Error("ImagePolicyWebhook asks no authorizer");
    },
    config: text === undefined ? undefined : { text, source: "/etc/kapi/image-policy.yaml" },
    metrics: new AdmissionMetrics(),
    log: () => {},
  };
}

function pod(name: string, images: string[], extra: Record<string, unknown> = {}): object {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, ...extra },
    spec: { containers: images.map((image, i) => ({ name: `c${i}`, image })) },
  };
}

describe("ImagePolicyWebhook", () => {
  const backend = new Backend();
  let backendPort = 0;
  const servers: RunningServer[] = [];
  const audit: AuditEvent[] = [];
  let clock = 1_000_000;

  beforeAll(async () => {
    backendPort = await backend.listen();
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
    await backend.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A server with the plugin configured by `policy` (the lines under `imagePolicy:`). */
  async function serverWith(policy: Record<string, unknown>): Promise<RunningServer> {
    const server = await startServer({
      insecure: true,
      adminToken: token,
      controllers: false,
      // No serviceaccount controller runs, so no `default` ServiceAccount exists to admit pods with.
      admission: { disablePlugins: ["ServiceAccount"] },
      audit: (e) => audit.push(e),
    });
    servers.push(server);
    const text = JSON.stringify({ imagePolicy: policy });
    server.resources.addAdmission(imagePolicyWebhook(contextFor(server, text), { now: () => clock }));
    return server;
  }

  function createPod(server: RunningServer, body: object): Promise<Response> {
    return fetch(`${server.url}/api/v1/namespaces/default/pods`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  }

  function annotationsOf(name: string): Record<string, string> {
    const event = audit.findLast(
      (e) =>
        e.verb === "create" &&
        e.objectRef?.resource === "pods" &&
        e.objectRef.name === name &&
        e.stage === "ResponseComplete",
    );
    return (event?.annotations ?? {}) as Record<string, string>;
  }

  it("sends an ImageReview and admits what the backend allows", async () => {
    const server = await serverWith({ kubeConfigFile: kubeconfigFor(backendPort, "ok"), retryBackoff: 1 });
    const body = pod("ipw-good", ["nginx:1.27", "busybox@sha256:abc"], {
      annotations: {
        "mirror.image-policy.k8s.io/region": "eu",
        "team.example.com/owner": "x",
        "a.image-policy.k8s.io/b": "c",
      },
    });
    (body as { spec: { initContainers?: object[] } }).spec.initContainers = [{ name: "init", image: "alpine:3" }];
    const res = await createPod(server, body);
    expect(res.status).toBe(201);
    const call = backend.calls.at(-1);
    expect(call?.url).toBe("/review?timeout=30s");
    expect(call?.review).toEqual({
      kind: "ImageReview",
      apiVersion: "imagepolicy.k8s.io/v1alpha1",
      metadata: {},
      spec: {
        containers: [{ image: "nginx:1.27" }, { image: "busybox@sha256:abc" }, { image: "alpine:3" }],
        annotations: { "a.image-policy.k8s.io/b": "c", "mirror.image-policy.k8s.io/region": "eu" },
        namespace: "default",
      },
      status: { allowed: false },
    });
    expect(annotationsOf("ipw-good")).toMatchObject({ "imagepolicywebhook.image-policy.k8s.io/checked": "3" });
  });

  it("refuses what the backend denies with 403 Forbidden and kube's text", async () => {
    const server = await serverWith({ kubeConfigFile: kubeconfigFor(backendPort, "deny"), retryBackoff: 1 });
    const res = await createPod(server, pod("ipw-bad", ["bad:1", "nginx"]));
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: 'pods "ipw-bad" is forbidden: image policy webhook backend denied one or more images: bad:1 not allowed',
      reason: "Forbidden",
      details: { name: "ipw-bad", kind: "pods" },
      code: 403,
    });
    const silent = await createPod(server, pod("ipw-silent", ["bad-silent:1"]));
    expect(((await silent.json()) as { message: string }).message).toBe(
      'pods "ipw-silent" is forbidden: one or more images rejected by webhook backend',
    );
  });

  it("keeps answers for allowTTL and denyTTL", async () => {
    const server = await serverWith({ kubeConfigFile: kubeconfigFor(backendPort, "ttl"), allowTTL: 10, denyTTL: 2 });
    const before = backend.calls.length;
    expect((await createPod(server, pod("ipw-ttl-1", ["redis:7"]))).status).toBe(201);
    expect((await createPod(server, pod("ipw-ttl-2", ["redis:7"]))).status).toBe(201);
    expect((await createPod(server, pod("ipw-ttl-3", ["bad:2"]))).status).toBe(403);
    expect((await createPod(server, pod("ipw-ttl-4", ["bad:2"]))).status).toBe(403);
    expect(backend.calls.length - before).toBe(2);
    // Cached answers still bring their audit annotations.
    expect(annotationsOf("ipw-ttl-2")).toMatchObject({ "imagepolicywebhook.image-policy.k8s.io/checked": "1" });
    clock += 3_000;
    expect((await createPod(server, pod("ipw-ttl-5", ["redis:7"]))).status).toBe(201);
    expect((await createPod(server, pod("ipw-ttl-6", ["bad:2"]))).status).toBe(403);
    expect(backend.calls.length - before).toBe(3);
    clock += 8_000;
    expect((await createPod(server, pod("ipw-ttl-7", ["redis:7"]))).status).toBe(201);
    expect(backend.calls.length - before).toBe(4);
  });

  it("retries a backend answering 500 with kube's webhook backoff", async () => {
    const server = await serverWith({ kubeConfigFile: kubeconfigFor(backendPort, "retry"), retryBackoff: 1 });
    const before = backend.calls.length;
    backend.failures = 2;
    expect((await createPod(server, pod("ipw-retry", ["memcached:1"]))).status).toBe(201);
    expect(backend.calls.length - before).toBe(3);
    backend.failures = 5;
    const res = await createPod(server, pod("ipw-retry-out", ["memcached:2"]));
    expect(res.status).toBe(403);
    expect(((await res.json()) as { message: string }).message).toBe(
      'pods "ipw-retry-out" is forbidden: an error on the server ("unknown") has prevented the request from succeeding',
    );
    expect(backend.calls.length - before).toBe(8);
  });

  it("with the backend down, lets pods in only with defaultAllow, marking the audit event", async () => {
    const down = new Backend();
    const port = await down.listen();
    await down.close();
    const kubeconfig = kubeconfigFor(port, "down");
    const open = await serverWith({ kubeConfigFile: kubeconfig, defaultAllow: true });
    const admitted = await createPod(open, pod("ipw-open", ["nginx"]));
    expect(admitted.status).toBe(201);
    // kube sets alpha.image-policy.k8s.io/failed-open on a copy only: the stored pod does not carry it.
    expect(((await admitted.json()) as { metadata: { annotations?: object } }).metadata.annotations).toBeUndefined();
    expect(annotationsOf("ipw-open")).toMatchObject({ "imagepolicywebhook.image-policy.k8s.io/failed-open": "true" });

    const closed = await serverWith({ kubeConfigFile: kubeconfig, defaultAllow: false });
    const refused = await createPod(closed, pod("ipw-closed", ["nginx"]));
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({
      reason: "Forbidden",
      message: `pods "ipw-closed" is forbidden: Post "https://127.0.0.1:${port}/review?timeout=30s": dial tcp 127.0.0.1:${port}: connect: connection refused`,
    });
  });

  it("reviews pod updates but not other subresources or kinds", async () => {
    const server = await serverWith({ kubeConfigFile: kubeconfigFor(backendPort, "update"), allowTTL: -1 });
    const before = backend.calls.length;
    const res = await createPod(server, pod("ipw-update", ["nginx:1"]));
    const created = (await res.json()) as { metadata: { labels?: object } };
    created.metadata.labels = { changed: "yes" };
    const put = (path: string, body: object) =>
      fetch(`${server.url}${path}`, {
        method: "PUT",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const updated = await put("/api/v1/namespaces/default/pods/ipw-update", created);
    expect(updated.status).toBe(200);
    expect(backend.calls.length - before).toBe(2);
    expect(
      (await put("/api/v1/namespaces/default/pods/ipw-update/status", (await updated.json()) as object)).status,
    ).toBe(200);
    const configMap = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "ipw-cm" } };
    const cm = await fetch(`${server.url}/api/v1/namespaces/default/configmaps`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(configMap),
    });
    expect(cm.status).toBe(201);
    expect(backend.calls.length - before).toBe(2);
  });

  it("is switched on by --enable-admission-plugins and configured by its legacy file as --admission-control-config-file", async () => {
    const configFile = join(dir, "image-policy.yaml");
    writeFileSync(
      configFile,
      `imagePolicy:\n  kubeConfigFile: ${kubeconfigFor(backendPort, "flag")}\n  allowTTL: 50\n  denyTTL: 50\n  retryBackoff: 500\n  defaultAllow: false\n`,
    );
    const server = await startServer({
      insecure: true,
      adminToken: token,
      controllers: false,
      admission: { enablePlugins: ["ImagePolicyWebhook"], disablePlugins: ["ServiceAccount"], configFile },
    });
    servers.push(server);
    expect((await createPod(server, pod("flag-good", ["registry.example/flag-good:1"]))).status).toBe(201);
    const denied = await createPod(server, pod("flag-bad", ["registry.example/flag-bad:1"]));
    expect(denied.status).toBe(403);
    expect(((await denied.json()) as { message: string }).message).toBe(
      'pods "flag-bad" is forbidden: image policy webhook backend denied one or more images: registry.example/flag-bad:1 not allowed',
    );
  });

  it("fails to start on a configuration kube refuses, with kube's texts", async () => {
    const server = await serverWith({ kubeConfigFile: kubeconfigFor(backendPort, "config") });
    const build = (text: string | undefined) => () => imagePolicyWebhook(contextFor(server, text));
    expect(build(undefined)).toThrow(new Error("no config specified"));
    expect(build("imagePolicy:\n  allowTTL: 3600\n")).toThrow(
      new Error("valid value is between 1s and 30m0s, got 1h0m0s"),
    );
    expect(build('{"imagePolicy": {"retryBackoff": 400000}}')).toThrow(
      new Error("valid value is between 1ns and 5m0s, got 6m40s"),
    );
    expect(build('{"imagePolicy": {"denyTTL": -2}}')).toThrow(
      new Error("valid value is between 1s and 30m0s, got -2s"),
    );
    expect(build('{"imagePolicy": {"allowTTL": "30s"}}')).toThrow(
      new Error(
        "json: cannot unmarshal string into Go struct field imagePolicyWebhookConfig.imagePolicy.allowTTL of type time.Duration",
      ),
    );
    expect(build("imagePolicy:\n  defaultAllow: maybe\n")).toThrow(
      new Error(
        "error unmarshaling JSON: while decoding JSON: json: cannot unmarshal string into Go struct field imagePolicyWebhookConfig.imagePolicy.defaultAllow of type bool",
      ),
    );
    expect(build("imagePolicy:\n  allowTTL: 30\n")).toThrow(
      new Error(
        "invalid configuration: no configuration has been provided, try setting KUBERNETES_MASTER environment variable",
      ),
    );
    // Field names match whatever their case, as encoding/json matches them.
    const path = kubeconfigFor(backendPort, "case");
    expect(build(`imagepolicy:\n  KubeConfigFile: ${path}\n`)).not.toThrow();
  });
});
