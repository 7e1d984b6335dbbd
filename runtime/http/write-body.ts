// Writing successful responses; failures go through the error writer alone.
import type { ServerResponse } from "node:http";

export function writeBody(res: ServerResponse, code: number, contentType: string, body: string | Buffer): void {
  res.writeHead(code, {
    "Content-Type": contentType,
    "Content-Length": Buffer.byteLength(body),
    "X-Content-Type-Options": "nosniff",
  });
  res.end(body);
}

export function writeJson(res: ServerResponse, code: number, body: string, contentType = "application/json"): void {
  writeBody(res, code, contentType, body);
}

export function writeText(res: ServerResponse, code: number, body: string): void {
  writeBody(res, code, "text/plain; charset=utf-8", body);
}
