// A local HTTPS webhook for tests: serves with a certificate for 127.0.0.1 from its own CA, asks for a
// client certificate from the same CA, records what it was sent, and answers with the handler's reply.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { IncomingMessage } from "node:http";
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach } from "vitest";
import { createServingCertificates, issueClientCertificate } from "../../../runtime/http/certificates.js";

export interface Reply {
  status?: number;
  body?: unknown;
  /** Sent as is instead of `body`. */
  raw?: string;
  headers?: Record<string, string>;
  delayMs?: number;
}

export interface RecordedRequest {
  body: unknown;
  headers: IncomingMessage["headers"];
  /** The client certificate's subject CN, when one was presented. */
  clientCommonName?: string;
  path: string;
}

export interface WebhookServer {
  url: string;
  caCert: string;
  client: { cert: string; key: string };
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startWebhookServer(
  handler: (body: unknown, request: RecordedRequest) => Reply | Promise<Reply>,
): Promise<WebhookServer> {
  const certs = createServingCertificates({ dns: ["localhost"], ips: ["127.0.0.1"] });
  const client = issueClientCertificate({ cert: certs.caCert, key: certs.caKey as string }, { commonName: "kapi" });
  const requests: RecordedRequest[] = [];
  const server = createServer(
    { cert: certs.cert, key: certs.key, ca: certs.caCert, requestCert: true, rejectUnauthorized: false },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", async () => {
        const text = Buffer.concat(chunks).toString("utf8");
        const peer = (req.socket as import("node:tls").TLSSocket).getPeerCertificate();
        const recorded: RecordedRequest = {
          body: text === "" ? undefined : JSON.parse(text),
          headers: req.headers,
          path: req.url ?? "",
          ...(peer?.subject?.CN === undefined ? {} : { clientCommonName: String(peer.subject.CN) }),
        };
        requests.push(recorded);
        const reply = await handler(recorded.body, recorded);
        if (reply.delayMs !== undefined) await new Promise((r) => setTimeout(r, reply.delayMs));
        if (res.destroyed) return;
        res.writeHead(reply.status ?? 200, { "content-type": "application/json", ...reply.headers });
        res.end(reply.raw ?? JSON.stringify(reply.body ?? {}));
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}/authorize`,
    caCert: certs.caCert,
    client,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A webhook kubeconfig in `dir` with the CA and client certificate as files next to it. */
export function writeWebhookKubeconfig(dir: string, server: WebhookServer, name = "webhook.kubeconfig"): string {
  writeFileSync(join(dir, "ca.crt"), server.caCert);
  writeFileSync(join(dir, "client.crt"), server.client.cert);
  writeFileSync(join(dir, "client.key"), server.client.key);
  const path = join(dir, name);
  writeFileSync(
    path,
    [
      "apiVersion: v1",
      "kind: Config",
      "clusters:",
      "- name: authz",
      "  cluster:",
      `    server: ${server.url}`,
      "    certificate-authority: ca.crt",
      "users:",
      "- name: apiserver",
      "  user:",
      "    client-certificate: client.crt",
      "    client-key: client.key",
      "contexts:",
      "- name: webhook",
      "  context: {cluster: authz, user: apiserver}",
      "current-context: webhook",
      "",
    ].join("\n"),
  );
  return path;
}

/**
 * For a test file: a temporary directory removed after its tests, and `start`, whose servers are closed
 * after each test.
 */
export function webhookTestbed(prefix: string): {
  dir: string;
  start: (handler: Parameters<typeof startWebhookServer>[0]) => Promise<WebhookServer>;
} {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const servers: WebhookServer[] = [];
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  return {
    dir,
    start: async (handler) => {
      const server = await startWebhookServer(handler);
      servers.push(server);
      return server;
    },
  };
}
