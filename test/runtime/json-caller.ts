// Raw HTTP requests with a JSON body to a running server as a bearer-token user, answered with the status and
// the parsed body (undefined when empty): what the pod subresource and disruption tests send.
import { request } from "node:http";

export interface JsonAnswer {
  status: number;
  body: Record<string, unknown> | undefined;
}

export type JsonCall = (method: string, path: string, body?: unknown, contentType?: string) => Promise<JsonAnswer>;

/** A caller for the server at `url()` (read at each call, so it can be made before the server starts). */
export function jsonCaller(url: () => string, token: string): JsonCall {
  return (method, path, body, contentType = "application/json") =>
    new Promise((resolve, reject) => {
      const { hostname, port } = new URL(url());
      const headers = { authorization: `Bearer ${token}`, "content-type": contentType };
      const req = request({ hostname, port, path, method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString();
          resolve({ status: res.statusCode ?? 0, body: text === "" ? undefined : JSON.parse(text) });
        });
      });
      req.on("error", reject);
      req.end(body === undefined ? undefined : JSON.stringify(body));
    });
}
