// Requests to the kubeconfig's cluster with the credentials it names. After a 401 to exec plugin
// credentials, the request is made once more with fresh ones (the plugin runs again), so that a rotated
// token costs the caller nothing; a second 401 is the caller's.
import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { ClientCredentials, RequestCredentials } from "./credentials.js";

export interface JsonRequest {
  method?: string;
  /** Path and query below the server URL, e.g. `/api/v1/namespaces?limit=1`. */
  path: string;
  /** Sent as JSON. */
  body?: unknown;
  /** The body's content type; default application/json (a patch type names its own). */
  contentType?: string;
  headers?: Record<string, string>;
  /** How long the connection may stay idle; 0: no limit (watches). Default 30s. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface JsonResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body; the text when it is not JSON; undefined when empty. */
  body: unknown;
}

const defaultTimeoutMs = 30_000;

function send(
  server: URL,
  credentials: RequestCredentials,
  request: JsonRequest,
  payload: Buffer | undefined,
): Promise<IncomingMessage> {
  const url = new URL(server.pathname.replace(/\/$/, "") + request.path, server);
  const https = url.protocol === "https:";
  const timeoutMs = request.timeoutMs ?? defaultTimeoutMs;
  const headers: Record<string, string | number> = {
    accept: "application/json",
    ...request.headers,
    ...credentials.headers,
    ...(payload === undefined
      ? {}
      : { "content-type": request.contentType ?? "application/json", "content-length": payload.length }),
  };
  return new Promise((resolve, reject) => {
    const options = {
      method: request.method ?? "GET",
      headers,
      // A fresh connection per request: a rotated client certificate is never sent on an old one.
      agent: false as const,
      ...(timeoutMs > 0 ? { timeout: timeoutMs } : {}),
      ...(request.signal === undefined ? {} : { signal: request.signal }),
      ...(https ? credentials.tls : {}),
    };
    const req = (https ? httpsRequest : httpRequest)(url, options, resolve);
    // A watch may stay silent for minutes: keep-alive probes notice a peer that went away meanwhile.
    req.on("socket", (socket) => socket.setKeepAlive(true, 30_000));
    req.on("timeout", () => req.destroy(new Error(`the server did not answer within ${timeoutMs}ms`)));
    req.on("error", reject);
    req.end(payload);
  });
}

/** The whole body of a response, parsed as JSON when it is JSON. */
export async function readBody(response: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks).toString("utf8");
  if (raw === "") return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/** A request whose answer is read as it arrives (a watch); resolves once the status and headers are in. */
export async function openRequest(client: ClientCredentials, request: JsonRequest): Promise<IncomingMessage> {
  const payload = request.body === undefined ? undefined : Buffer.from(JSON.stringify(request.body));
  const used = await client.current();
  const response = await send(client.server, used, request, payload);
  if (response.statusCode !== 401 || !client.unauthorized(used)) return response;
  response.resume();
  return send(client.server, await client.current(), request, payload);
}

export async function requestJson(client: ClientCredentials, request: JsonRequest): Promise<JsonResponse> {
  const response = await openRequest(client, request);
  return { status: response.statusCode ?? 0, headers: response.headers, body: await readBody(response) };
}
