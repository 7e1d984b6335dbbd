// A client for the webhooks kube-apiserver calls (token authentication, authorization): where and how to
// connect comes from a kubeconfig file, as kube reads it for webhooks (the current context's cluster and
// user; the cluster's server is the endpoint's whole URL). Requests are JSON POSTs with a time limit.
import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { dirname, resolve } from "node:path";
import { parse } from "yaml";

export interface WebhookClient {
  url: URL;
  ca?: string;
  cert?: string;
  key?: string;
  token?: string;
  insecureSkipTlsVerify: boolean;
  serverName?: string;
}

export interface WebhookResponse {
  status: number;
  body: unknown;
}

type Named<T> = { name?: string } & T;
interface KubeconfigFile {
  clusters?: Named<{ cluster?: Record<string, unknown> }>[];
  users?: Named<{ user?: Record<string, unknown> }>[];
  contexts?: Named<{ context?: { cluster?: string; user?: string } }>[];
  "current-context"?: string;
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** Inline base64 data, or a file relative to the kubeconfig's directory. */
function material(entry: Record<string, unknown>, key: string, base: string): string | undefined {
  const data = text(entry[`${key}-data`]);
  if (data !== undefined) return Buffer.from(data, "base64").toString("utf8");
  const file = text(entry[key]);
  return file === undefined ? undefined : readFileSync(resolve(base, file), "utf8");
}

/** Reads a webhook's kubeconfig file; a file without a usable cluster is an error naming it. */
export function loadWebhookClient(path: string): WebhookClient {
  const base = dirname(resolve(path));
  const config = (parse(readFileSync(path, "utf8")) ?? {}) as KubeconfigFile;
  const contexts = config.contexts ?? [];
  const context =
    contexts.find((c) => c.name === config["current-context"])?.context ??
    (contexts.length === 1 ? contexts[0]?.context : undefined);
  const clusters = config.clusters ?? [];
  const users = config.users ?? [];
  const cluster = (
    context === undefined
      ? clusters.length === 1
        ? clusters[0]
        : undefined
      : clusters.find((c) => c.name === context.cluster)
  )?.cluster;
  const user =
    (context === undefined ? (users.length === 1 ? users[0] : undefined) : users.find((u) => u.name === context.user))
      ?.user ?? {};
  const server = text(cluster?.server);
  if (cluster === undefined || server === undefined) throw new Error(`${path}: no cluster with a server to call`);
  const tokenFile = text(user.tokenFile);
  const token =
    text(user.token) ?? (tokenFile === undefined ? undefined : readFileSync(resolve(base, tokenFile), "utf8").trim());
  const ca = material(cluster, "certificate-authority", base);
  const cert = material(user, "client-certificate", base);
  const key = material(user, "client-key", base);
  const serverName = text(cluster["tls-server-name"]);
  return {
    url: new URL(server),
    insecureSkipTlsVerify: cluster["insecure-skip-tls-verify"] === true,
    ...(ca === undefined ? {} : { ca }),
    ...(cert === undefined ? {} : { cert }),
    ...(key === undefined ? {} : { key }),
    ...(token === undefined ? {} : { token }),
    ...(serverName === undefined ? {} : { serverName }),
  };
}

/** POSTs `body` as JSON; rejects on connection errors, a time-out, or a body that is not JSON. */
export function postJson(client: WebhookClient, body: unknown, timeoutMs: number): Promise<WebhookResponse> {
  const payload = Buffer.from(JSON.stringify(body));
  const headers: Record<string, string | number> = {
    "content-type": "application/json",
    accept: "application/json",
    "content-length": payload.length,
  };
  if (client.token !== undefined) headers.authorization = `Bearer ${client.token}`;
  const https = client.url.protocol === "https:";
  return new Promise((resolvePromise, reject) => {
    const options = {
      method: "POST",
      headers,
      timeout: timeoutMs,
      ...(https
        ? {
            rejectUnauthorized: !client.insecureSkipTlsVerify,
            ...(client.ca === undefined ? {} : { ca: client.ca }),
            ...(client.cert === undefined ? {} : { cert: client.cert }),
            ...(client.key === undefined ? {} : { key: client.key }),
            ...(client.serverName === undefined ? {} : { servername: client.serverName }),
          }
        : {}),
    };
    const req = (https ? httpsRequest : httpRequest)(client.url, options, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", reject);
      res.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        try {
          resolvePromise({ status: res.statusCode ?? 0, body: raw === "" ? undefined : JSON.parse(raw) });
        } catch {
          reject(new Error(`the webhook answered ${res.statusCode} with a body that is not JSON`));
        }
      });
    });
    req.on("timeout", () => req.destroy(new Error(`the webhook did not answer within ${timeoutMs}ms`)));
    req.on("error", reject);
    req.end(payload);
  });
}
