import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  inClusterWebhookClient,
  loadWebhookClient,
  postJson,
  postJsonWithRetry,
} from "../../../runtime/http/webhook-client.js";
import { webhookTestbed, writeWebhookKubeconfig } from "./webhook-server.js";

const { dir, start } = webhookTestbed("kapi-webhook-client-");

const quick = { initialDelayMs: 1, factor: 1, jitter: 0, attempts: 3 };

describe("loadWebhookClient", () => {
  it("reads the current context's cluster and user, with files relative to the kubeconfig", async () => {
    const server = await start(() => ({ body: { ok: true } }));
    const client = loadWebhookClient(writeWebhookKubeconfig(dir, server));
    expect(client.url.href).toBe(server.url);
    expect(client.ca).toBe(server.caCert);
    expect(client.cert).toBe(server.client.cert);
    expect(client.key).toBe(server.client.key);
    expect(client.insecureSkipTlsVerify).toBe(false);
  });

  it("reads inline data, a token file, basic auth and the TLS server name", () => {
    writeFileSync(join(dir, "token"), "s3cret\n");
    const path = join(dir, "inline.kubeconfig");
    writeFileSync(
      path,
      [
        "clusters:",
        "- name: a",
        "  cluster: {server: 'https://authz.example:8443/x', certificate-authority-data: " +
          `${Buffer.from("CA").toString("base64")}, tls-server-name: authz.internal}`,
        "- name: b",
        "  cluster: {server: 'https://other'}",
        "users:",
        "- name: t",
        "  user: {tokenFile: token}",
        "- name: basic",
        "  user: {username: admin, password: pw}",
        "contexts:",
        "- name: one",
        "  context: {cluster: a, user: t}",
        "- name: two",
        "  context: {cluster: b, user: basic}",
        "current-context: one",
      ].join("\n"),
    );
    expect(loadWebhookClient(path)).toEqual({
      url: new URL("https://authz.example:8443/x"),
      ca: "CA",
      token: "s3cret",
      serverName: "authz.internal",
      insecureSkipTlsVerify: false,
    });
    writeFileSync(path, readFileSync(path, "utf8").replace("current-context: one", "current-context: two"));
    expect(loadWebhookClient(path)).toMatchObject({ username: "admin", password: "pw" });
  });

  it("refuses a kubeconfig without a cluster to call", () => {
    const path = join(dir, "empty.kubeconfig");
    writeFileSync(path, "clusters: []\n");
    expect(() => loadWebhookClient(path)).toThrow(`${path}: no cluster with a server to call`);
  });
});

describe("inClusterWebhookClient", () => {
  it("needs the service's host and port and reads the service account's token and CA", () => {
    expect(() => inClusterWebhookClient("/x", {})).toThrow(
      "unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be defined",
    );
    const sa = mkdtempSync(join(dir, "sa-"));
    writeFileSync(join(sa, "token"), "tok\n");
    writeFileSync(join(sa, "ca.crt"), "CA");
    const client = inClusterWebhookClient(
      "/apis/authorization.k8s.io/v1/subjectaccessreviews",
      { KUBERNETES_SERVICE_HOST: "fd00::1", KUBERNETES_SERVICE_PORT: "443" },
      sa,
    );
    expect(client.url.href).toBe("https://[fd00::1]/apis/authorization.k8s.io/v1/subjectaccessreviews");
    expect(client).toMatchObject({ token: "tok", ca: "CA" });
  });
});

describe("postJson", () => {
  it("posts JSON over mutual TLS and returns the status and body", async () => {
    const server = await start((body) => ({ status: 201, body: { echo: body } }));
    const client = loadWebhookClient(writeWebhookKubeconfig(dir, server));
    const response = await postJson({ ...client, token: "t" }, { hello: "world" }, 5000);
    expect(response).toEqual({ status: 201, body: { echo: { hello: "world" } } });
    expect(server.requests[0]?.clientCommonName).toBe("kapi");
    expect(server.requests[0]?.headers.authorization).toBe("Bearer t");
    expect(server.requests[0]?.headers["content-type"]).toBe("application/json");
  });

  it("rejects a body that is not JSON, an untrusted server and a slow one", async () => {
    const server = await start((body) =>
      (body as { slow?: boolean }).slow ? { delayMs: 500, body: {} } : { raw: "<html>" },
    );
    const client = loadWebhookClient(writeWebhookKubeconfig(dir, server));
    await expect(postJson(client, {}, 5000)).rejects.toThrow("the webhook answered 200 with a body that is not JSON");
    await expect(postJson(client, { slow: true }, 50)).rejects.toThrow("the webhook did not answer within 50ms");
    const { ca: _, ...untrusting } = client;
    await expect(postJson(untrusting, {}, 5000)).rejects.toThrow(/self-signed|unable to verify|certificate/);
  });

  it("retries what kube retries, and not the rest", async () => {
    let calls = 0;
    const plain = createServer((req, res) => {
      calls++;
      req.resume();
      const status = req.url === "/flaky" && calls < 3 ? 500 : req.url === "/forbidden" ? 403 : 200;
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ calls }));
    });
    await new Promise<void>((r) => plain.listen(0, "127.0.0.1", r));
    const base = `http://127.0.0.1:${(plain.address() as AddressInfo).port}`;
    try {
      const flaky = { url: new URL(`${base}/flaky`), insecureSkipTlsVerify: false };
      expect(await postJsonWithRetry(flaky, {}, 1000, quick)).toEqual({ status: 200, body: { calls: 3 } });
      calls = 0;
      const forbidden = { url: new URL(`${base}/forbidden`), insecureSkipTlsVerify: false };
      expect(await postJsonWithRetry(forbidden, {}, 1000, quick)).toEqual({ status: 403, body: { calls: 1 } });
    } finally {
      await new Promise((r) => plain.close(r));
    }
  });
});
