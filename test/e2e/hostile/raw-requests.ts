// Requests whose framing is malformed, written as bytes onto a TLS connection: request targets that are not
// paths (`http://`, `*`, absolute URLs, `//api`), encoded slashes and broken escapes, NUL and control bytes,
// unknown methods and versions, duplicate and oversized headers, contradictory lengths, bodies cut short.
import type { RawContext, RawRequest } from "./hostile-request.js";
import type { Prng } from "./prng.js";

export const hostileTargets: readonly string[] = [
  "http://",
  "https://",
  "http:",
  "*",
  "http://127.0.0.1/api",
  "https://127.0.0.1:1/api/v1/namespaces",
  "http://user:pass@host/api",
  "http://[::1/api",
  "//api",
  "//api/v1//namespaces",
  "///",
  "/api/v1/namespaces/h4-fuzz%2Fconfigmaps",
  "/api%2Fv1/namespaces",
  "/api/v1/namespaces/%2F/configmaps",
  "/api/v1/namespaces/%zz",
  "/api/%",
  "/%",
  "/api/v1/namespaces/%",
  "/api/v1/namespaces/h4-fuzz/configmaps/%00",
  "/api/v1/../../../etc/passwd",
  "/api/v1/namespaces/h4-fuzz/configmaps?%zz=%",
  "/api/v1/namespaces?limit=%",
  "api/v1",
  "",
  "?",
  "#",
  "/\u0000",
  "/api\u0001",
  "/api\u007f",
  "/api\u00e9",
  "/api\t/v1",
  "/api /v1",
  "/api\\v1",
  "/#/api",
];

const methods = [
  "GET",
  "POST",
  "PUT",
  "PATCH",
  "DELETE",
  "HEAD",
  "OPTIONS",
  "CONNECT",
  "TRACE",
  "PRI",
  "FOO",
  "get",
  "G\u0000T",
  "",
  "M".repeat(100),
  "GET GET",
  "PROPFIND",
];

const versions = [
  "HTTP/1.1",
  "HTTP/1.0",
  "HTTP/2.0",
  "HTTP/0.9",
  "HTTP/1.2",
  "HTTP/9.9",
  "HTTP/1",
  "http/1.1",
  "HTTP/1.1 extra",
  "",
  "HTTP/11",
];

/** A random path: mostly ordinary, sometimes one of the hostile targets, sometimes very long. */
function target(prng: Prng): string {
  switch (prng.int(5)) {
    case 0:
      return `/api/v1/namespaces/h4-fuzz/configmaps/${"x".repeat(prng.size([300], [20_000, 70_000]))}`;
    case 1:
      return prng.pick([
        "/api",
        "/api/v1/namespaces",
        "/apis/apps/v1/namespaces/h4-fuzz/deployments",
        "/livez",
        "/version",
      ]);
    default:
      return prng.pick(hostileTargets);
  }
}

/** Header lines beyond Host and authentication, each a hazard of its own. */
function hostileHeaderLines(prng: Prng): string[] {
  switch (prng.int(12)) {
    case 0:
      return [`X-Big: ${"h".repeat(prng.size([8000], [20_000, 70_000]))}`];
    case 1:
      return Array.from({ length: prng.size([100], [3000]) }, (_, i) => `X-N${i}: v`);
    case 2:
      return ["X-No-Colon"];
    case 3:
      return ["X Space: v"];
    case 4:
      return ["X-Folded: a", " continued"];
    case 5:
      return ["X-Nul: a\u0000b"];
    case 6:
      return [": empty name"];
    case 7:
      return ["Content-Type: application/json", "Content-Type: application/yaml"];
    case 8:
      return ["Accept: application/json\u0001"];
    case 9:
      return ["Authorization: Bearer a", "Authorization: Bearer b"];
    case 10:
      return ["Transfer-Encoding: gzip"];
    default:
      return [];
  }
}

interface Framing {
  headers: string[];
  body: Buffer;
  afterWrite: "answer" | "close";
}

const json = Buffer.from('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"h4-raw"}}');

/** Content-Length and Transfer-Encoding, agreeing or not, and the body they frame. */
function framing(prng: Prng): Framing {
  switch (prng.int(12)) {
    case 0:
      return { headers: [`Content-Length: ${json.length}`], body: json, afterWrite: "answer" };
    case 1:
      return { headers: [`Content-Length: ${json.length + 100}`], body: json, afterWrite: "close" };
    case 2:
      return { headers: ["Content-Length: 5"], body: json, afterWrite: "answer" };
    case 3:
      return {
        headers: [`Content-Length: ${prng.pick(["-1", "1e3", "0x10", "99999999999999999999", "", "1 2", "+5", " 5"])}`],
        body: json,
        afterWrite: "close",
      };
    case 4:
      return { headers: [`Content-Length: ${json.length}`, "Content-Length: 3"], body: json, afterWrite: "answer" };
    case 5:
      return {
        headers: [`Content-Length: ${json.length}`, "Transfer-Encoding: chunked"],
        body: chunked(json),
        afterWrite: "answer",
      };
    case 6:
      return { headers: ["Transfer-Encoding: chunked"], body: chunked(json), afterWrite: "answer" };
    case 7:
      return {
        headers: ["Transfer-Encoding: chunked"],
        body: Buffer.from(
          prng.pick([
            "zz\r\nabc\r\n0\r\n\r\n",
            "5\r\nab",
            "-1\r\n",
            "ffffffffffffffffff\r\nx",
            "5;ext=\u0000\r\nabcde\r\n0\r\n\r\n",
          ]),
        ),
        afterWrite: "close",
      };
    case 8:
      return { headers: ["Transfer-Encoding: chunked, identity"], body: chunked(json), afterWrite: "answer" };
    case 9:
      return { headers: ["Transfer-Encoding: identity"], body: json, afterWrite: "close" };
    case 10:
      // A client that leaves mid-upload.
      return {
        headers: ["Content-Length: 2097152"],
        body: Buffer.alloc(prng.size([0, 65_536], [1_048_576]), 0x20),
        afterWrite: "close",
      };
    default:
      return { headers: [], body: Buffer.alloc(0), afterWrite: "answer" };
  }
}

function chunked(body: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from("\r\n0\r\n\r\n")]);
}

export interface RawParts {
  method: string;
  target: string;
  version: string;
  /** Whether to send a Host header (HTTP/1.1 requires one). */
  host: boolean;
  headers: readonly string[];
  body?: Buffer;
  lineEnd?: string;
}

/** The bytes of a request from its parts, with the Host and authentication lines added. */
export function rawBytes(parts: RawParts, ctx: RawContext): Buffer {
  const end = parts.lineEnd ?? "\r\n";
  const requestLine = [parts.method, parts.target, parts.version].filter((p) => p !== "").join(" ");
  const lines = [requestLine, ...(parts.host ? [`Host: ${ctx.host}`] : []), ...ctx.auth, ...parts.headers];
  return Buffer.concat([Buffer.from(`${lines.join(end)}${end}${end}`, "latin1"), parts.body ?? Buffer.alloc(0)]);
}

export function hostileRawRequest(prng: Prng): RawRequest {
  const body = framing(prng);
  const parts: RawParts = {
    method: prng.chance(0.7) ? prng.pick(["GET", "POST", "PUT"]) : prng.pick(methods),
    target: target(prng),
    version: prng.chance(0.8) ? "HTTP/1.1" : prng.pick(versions),
    host: prng.chance(0.9),
    headers: [...hostileHeaderLines(prng), ...body.headers],
    body: body.body,
    lineEnd: prng.chance(0.9) ? "\r\n" : prng.pick(["\n", "\r", "\n\r"]),
  };
  return {
    kind: "raw",
    inputClass: "raw",
    as: prng.chance(0.7) ? "admin" : "anonymous",
    build: (ctx) => rawBytes(parts, ctx),
    // A request that is not whole (a bare CR for line ends) would leave the server waiting.
    afterWrite: parts.lineEnd === "\r" ? "close" : body.afterWrite,
  };
}
