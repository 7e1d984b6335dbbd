// One JSON request to the kubeconfig's cluster with the credentials it names. After a 401 to exec plugin
// credentials, the request is made once more with fresh ones (the plugin runs again), so that a rotated
// token costs the caller nothing; a second 401 is the caller's.
import type { IncomingHttpHeaders } from "node:http";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { ClientCredentials, RequestCredentials } from "./credentials.js";

export interface JsonRequest {
  method?: string;
  /** Path and query below the server URL, e.g. `/api/v1/namespaces?limit=1`. */
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  timeoutMs?: number;
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
): Promise<JsonResponse> {
  const url = new URL(server.pathname.replace(/\/$/, "") + request.path, server);
  const https = url.protocol === "https:";
  const timeoutMs = request.timeoutMs ?? defaultTimeoutMs;
  const headers: Record<string, string | number> = {
    accept: "application/json",
    ...request.headers,
    ...credentials.headers,
    ...(payload === undefined ? {} : { "content-type": "application/json", "content-length": payload.length }),
  };
  return new Promise((resolve, reject) => {
    const options = {
      method: request.method ?? "GET",
      headers,
      timeout: timeoutMs,
      // A fresh connection per request: a rotated client certificate is never sent on an old one.
      agent: false as const,
      ...(https ? credentials.tls : {}),
    };
    const req = (https ? httpsRequest : httpRequest)(url, options, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", reject);
      res.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        let body: unknown;
        try {
          body = raw === "" ? undefined : JSON.parse(raw);
        } catch {
          body = raw;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
      });
    });
    req.on("timeout", () => req.destroy(new Error(`the server did not answer within ${timeoutMs}ms`)));
    req.on("error", reject);
    req.end(payload);
  });
}

export async function requestJson(client: ClientCredentials, request: JsonRequest): Promise<JsonResponse> {
  const payload = request.body === undefined ? undefined : Buffer.from(JSON.stringify(request.body));
  const used = await client.current();
  const response = await send(client.server, used, request, payload);
  if (response.status !== 401 || !client.unauthorized(used)) return response;
  return send(client.server, await client.current(), request, payload);
}
