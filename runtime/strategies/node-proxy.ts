// The proxy subresources of pods, services and nodes once the address is known: the request goes on to
// `scheme://host:port/<path>` and its answer comes back; a backend that cannot be reached answers 503 as
// kube's upgrade-aware proxy does. Upgrade requests (websockets, SPDY) are not tunnelled.
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { StatusError } from "../errors/status-error.js";
import type { ConnectAnswer, ConnectRequest } from "./hook-request.js";
import { dialError, joinHostPort } from "./node-connection.js";

export interface ProxyLocation {
  scheme: string;
  host: string;
  port: number;
}

const hopByHop = new Set(["connection", "keep-alive", "transfer-encoding", "upgrade", "authorization", "host"]);

function unreachable(detail: string): StatusError {
  return new StatusError(503, "ServiceUnavailable", `error trying to reach service: ${detail}`);
}

export async function proxyTo(location: ProxyLocation, request: ConnectRequest): Promise<ConnectAnswer> {
  const failed = await dialError(location.host, location.port);
  if (failed !== undefined) throw unreachable(failed);
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined && !hopByHop.has(name.toLowerCase()) && !name.startsWith(":")) headers[name] = value;
  }
  const query = request.query.toString();
  const path = `/${request.path ?? ""}${query === "" ? "" : `?${query}`}`;
  const send = location.scheme === "https" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const outgoing = send(
      {
        host: location.host,
        port: location.port,
        method: request.method,
        path,
        headers: { ...headers, host: joinHostPort(location.host, location.port) },
        rejectUnauthorized: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          const contentType = response.headers["content-type"];
          resolve({
            code: response.statusCode ?? 502,
            ...(contentType === undefined ? {} : { contentType }),
            body: Buffer.concat(chunks),
          });
        });
        response.on("error", (error) => reject(unreachable(error.message)));
      },
    );
    outgoing.on("error", (error) => reject(unreachable(error.message)));
    outgoing.end(request.body);
  });
}
