// A client for the webhooks kube-apiserver calls (token authentication, authorization): where and how to
// connect comes from a kubeconfig file, as kube reads it for webhooks (the current context's cluster and
// user; the cluster's server is the endpoint's whole URL). Requests are JSON POSTs with a time limit;
// `postJsonWithRetry` retries the failures kube's webhook client retries, with its backoff.
import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIPv6 } from "node:net";
import { join } from "node:path";
import { Backoff } from "../../sdk/backoff.js";
import { type ClientConfig, KubeconfigError, loadKubeconfig } from "../../sdk/kubeconfig.js";

export interface WebhookClient {
  url: URL;
  ca?: string;
  cert?: string;
  key?: string;
  token?: string;
  /** Basic authentication, when the kubeconfig user has a username. */
  username?: string;
  password?: string;
  insecureSkipTlsVerify: boolean;
  serverName?: string;
  /** Where to connect when it is not the URL's host (a service resolved to one of its endpoints). */
  address?: { host: string; port: number };
}

export interface WebhookResponse {
  status: number;
  body: unknown;
  /** The Retry-After header in seconds, when the webhook sent one. */
  retryAfterSeconds?: number;
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/** Reads a webhook's kubeconfig file (its current context); a file without a usable cluster is an error naming it. */
export function loadWebhookClient(path: string): WebhookClient {
  let config: ClientConfig;
  try {
    config = loadKubeconfig({ path });
  } catch (error) {
    if (error instanceof KubeconfigError && error.message.includes("no configuration has been provided")) {
      throw new Error(`${path}: no cluster with a server to call`);
    }
    throw error;
  }
  const { cluster, user } = config;
  const token = user.token ?? (user.tokenFile === undefined ? undefined : readFileSync(user.tokenFile, "utf8").trim());
  return {
    url: new URL(cluster.server),
    insecureSkipTlsVerify: cluster.insecureSkipTlsVerify,
    ...optional("ca", cluster.certificateAuthorityData),
    ...optional("cert", user.clientCertificateData),
    ...optional("key", user.clientKeyData),
    ...optional("token", token),
    ...optional("username", user.username),
    ...optional("password", user.password),
    ...optional("serverName", cluster.tlsServerName),
  };
}

const serviceAccountDir = "/var/run/secrets/kubernetes.io/serviceaccount";

/**
 * client-go's in-cluster configuration (the service's host and port from the environment, the service
 * account's token and CA), calling `path` on that server.
 */
export function inClusterWebhookClient(
  path: string,
  env: NodeJS.ProcessEnv = process.env,
  dir = serviceAccountDir,
): WebhookClient {
  const host = env.KUBERNETES_SERVICE_HOST ?? "";
  const port = env.KUBERNETES_SERVICE_PORT ?? "";
  if (host === "" || port === "") {
    throw new Error(
      "unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be defined",
    );
  }
  const token = readFileSync(join(dir, "token"), "utf8").trim();
  let ca: string | undefined;
  try {
    ca = readFileSync(join(dir, "ca.crt"), "utf8");
  } catch {
    // client-go goes on without the CA (the system's roots then apply).
  }
  const authority = isIPv6(host) ? `[${host}]:${port}` : `${host}:${port}`;
  return { url: new URL(path, `https://${authority}`), token, insecureSkipTlsVerify: false, ...optional("ca", ca) };
}

function headersFor(
  client: WebhookClient,
  payload: Buffer,
  extra: Readonly<Record<string, string>>,
): Record<string, string | number> {
  const headers: Record<string, string | number> = {
    "content-type": "application/json",
    accept: "application/json",
    ...extra,
    "content-length": payload.length,
  };
  if (client.address !== undefined) headers.host ??= client.url.host;
  if (client.token !== undefined) headers.authorization = `Bearer ${client.token}`;
  else if (client.username !== undefined) {
    headers.authorization = `Basic ${Buffer.from(`${client.username}:${client.password ?? ""}`).toString("base64")}`;
  }
  return headers;
}

function retryAfter(header: string | string[] | undefined): number | undefined {
  const seconds = Number(Array.isArray(header) ? header[0] : header);
  return header === undefined || !Number.isInteger(seconds) || seconds < 0 ? undefined : seconds;
}

/** A webhook's answer as it came: its status, content type and body text. */
export interface RawWebhookResponse {
  status: number;
  contentType: string | undefined;
  text: string;
  /** The Retry-After header in seconds, when the webhook sent one. */
  retryAfterSeconds?: number;
}

/** The rejection of a call that `timeoutMs` cut short. */
export class WebhookTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`the webhook did not answer within ${timeoutMs}ms`);
    this.name = "WebhookTimeoutError";
  }
}

/**
 * POSTs `body` as JSON and hands back the answer whatever it is; rejects on connection and TLS errors, and
 * with a WebhookTimeoutError when `timeoutMs` passes. `headers` are sent besides the JSON ones.
 */
export function postJsonRaw(
  client: WebhookClient,
  body: unknown,
  timeoutMs: number,
  headers: Readonly<Record<string, string>> = {},
): Promise<RawWebhookResponse> {
  const payload = Buffer.from(JSON.stringify(body));
  const https = client.url.protocol === "https:";
  return new Promise((resolvePromise, reject) => {
    const options = {
      method: "POST",
      headers: headersFor(client, payload, headers),
      ...(client.address === undefined
        ? {}
        : { hostname: client.address.host, host: client.address.host, port: client.address.port }),
      ...(https
        ? {
            rejectUnauthorized: !client.insecureSkipTlsVerify,
            ...optional("ca", client.ca),
            ...optional("cert", client.cert),
            ...optional("key", client.key),
            ...optional("servername", client.serverName),
          }
        : {}),
    };
    const req = (https ? httpsRequest : httpRequest)(client.url, options, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", reject);
      res.on("end", () => {
        clearTimeout(timer);
        resolvePromise({
          status: res.statusCode ?? 0,
          contentType: res.headers["content-type"],
          text: Buffer.concat(chunks).toString("utf8"),
          ...optional("retryAfterSeconds", retryAfter(res.headers["retry-after"])),
        });
      });
    });
    // The limit covers the whole exchange, not only idle time on the socket.
    const timer = setTimeout(() => req.destroy(new WebhookTimeoutError(timeoutMs)), timeoutMs);
    req.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.end(payload);
  });
}

/** POSTs `body` as JSON; rejects on connection errors, when `timeoutMs` passes, or on a body that is not JSON. */
export async function postJson(client: WebhookClient, body: unknown, timeoutMs: number): Promise<WebhookResponse> {
  const raw = await postJsonRaw(client, body, timeoutMs);
  let parsed: unknown;
  try {
    parsed = raw.text === "" ? undefined : JSON.parse(raw.text);
  } catch {
    throw new Error(`the webhook answered ${raw.status} with a body that is not JSON`);
  }
  return {
    status: raw.status,
    body: parsed,
    ...optional("retryAfterSeconds", raw.retryAfterSeconds),
  };
}

/** kube's webhook retry backoff (DefaultRetryBackoffWithInitialDelay(500ms)): 5 attempts, ×1.5, 20% jitter. */
export interface RetryBackoff {
  initialDelayMs: number;
  factor: number;
  jitter: number;
  attempts: number;
}

export const defaultRetryBackoff: RetryBackoff = { initialDelayMs: 500, factor: 1.5, jitter: 0.2, attempts: 5 };

/** What kube's DefaultShouldRetry retries: a reset connection, 429, 500, 504, or an answer asking for a retry. */
function shouldRetry(outcome: WebhookResponse | Error): boolean {
  if (outcome instanceof Error) return (outcome as NodeJS.ErrnoException).code === "ECONNRESET";
  return [429, 500, 504].includes(outcome.status) || outcome.retryAfterSeconds !== undefined;
}

const isSuccess = (r: WebhookResponse) => r.status >= 200 && r.status < 300;

/** `postJson`, retried with backoff while the failure is one kube retries; the last answer or error stands. */
export async function postJsonWithRetry(
  client: WebhookClient,
  body: unknown,
  timeoutMs: number,
  backoff: RetryBackoff = defaultRetryBackoff,
): Promise<WebhookResponse> {
  const delays = new Backoff({ firstDelayMs: backoff.initialDelayMs, factor: backoff.factor, jitter: backoff.jitter });
  for (let attempt = 1; ; attempt++) {
    const outcome = await postJson(client, body, timeoutMs).catch((error: Error) => error);
    const done = !(outcome instanceof Error) && isSuccess(outcome);
    if (done || attempt >= backoff.attempts || !shouldRetry(outcome)) {
      if (outcome instanceof Error) throw outcome;
      return outcome;
    }
    await delays.wait();
  }
}
