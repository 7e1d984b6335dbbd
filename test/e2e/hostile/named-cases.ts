// The hostile inputs issue 16 names, one request each. The status kube-apiserver answers each with is
// recorded next to the test that asserts it (hostile-requests.test.ts).
import type { HostileRequest, HttpRequest, RawRequest } from "./hostile-request.js";
import { nestedText } from "./hostile-values.js";
import { rawBytes } from "./raw-requests.js";
import { aliasBomb } from "./yaml-bodies.js";

export interface NamedCase {
  name: string;
  request: HostileRequest;
}

/** The largest body kube-apiserver reads (3 MiB). */
export const maxBodyBytes = 3 * 1024 * 1024;

function raw(
  name: string,
  parts: { method: string; target: string; version?: string; headers?: string[]; body?: Buffer },
  afterWrite: RawRequest["afterWrite"] = "answer",
  as: RawRequest["as"] = "admin",
): NamedCase {
  return {
    name,
    request: {
      kind: "raw",
      inputClass: "named",
      as,
      afterWrite,
      build: (ctx) =>
        rawBytes(
          {
            method: parts.method,
            target: parts.target,
            version: parts.version ?? "HTTP/1.1",
            host: true,
            headers: parts.headers ?? [],
            ...(parts.body === undefined ? {} : { body: parts.body }),
          },
          ctx,
        ),
    },
  };
}

function http(name: string, request: Omit<HttpRequest, "kind" | "inputClass">): NamedCase {
  return { name, request: { kind: "http", inputClass: "named", ...request } };
}

const configMaps = "/api/v1/namespaces/default/configmaps";

/** A ConfigMap with an unknown field of nested arrays, `depth` levels deep counting the object itself. */
function deepConfigMap(depth: number): Buffer {
  return Buffer.from(
    `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"h4-deep"},"data":{"k":"v"},"deep":${nestedText(depth - 1, "array")}}`,
  );
}

/** A body of exactly `size` bytes: a ConfigMap padded with one long value. */
function configMapOfSize(size: number): Buffer {
  const head = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"h4-big"},"data":{"k":"';
  const tail = '"}}';
  return Buffer.from(`${head}${"x".repeat(size - head.length - tail.length)}${tail}`);
}

const selfSubjectReviews = "/apis/authentication.k8s.io/v1/selfsubjectreviews";
const deepYaml = Buffer.from('{"a":'.repeat(500_000));

export function namedCases(): NamedCase[] {
  return [
    raw("request target http://", { method: "GET", target: "http://" }),
    raw("request target https://", { method: "GET", target: "https://" }),
    raw("request target *", { method: "OPTIONS", target: "*" }),
    raw("CONNECT host:port", { method: "CONNECT", target: "127.0.0.1:443" }),
    raw("CONNECT /api", { method: "CONNECT", target: "/api" }),
    raw("absolute-form URL /api", { method: "GET", target: "https://127.0.0.1/api" }),
    raw("absolute-form URL of a list", { method: "GET", target: `https://127.0.0.1${configMaps}` }),
    raw("//api", { method: "GET", target: "//api" }),
    raw("//api/v1/namespaces", { method: "GET", target: "//api/v1/namespaces" }),
    raw("encoded slash in a namespace", { method: "GET", target: "/api/v1/namespaces/default%2Fconfigmaps" }),
    raw("encoded slash in a name", { method: "GET", target: `${configMaps}/a%2Fb` }),
    raw("encoded slash after the prefix", { method: "GET", target: "/api%2Fv1/namespaces" }),
    raw("bad percent-escape %zz", { method: "GET", target: "/api/v1/namespaces/%zz" }),
    raw("bad percent-escape %", { method: "GET", target: "/api/%" }),
    raw("bad percent-escape in the query", { method: "GET", target: `${configMaps}?limit=%zz` }),
    raw("NUL in the path", { method: "GET", target: "/api/\u0000" }),
    raw("unknown method", { method: "FOO", target: "/api" }),
    {
      name: "CONNECT pipelined behind a GET",
      request: {
        kind: "raw",
        inputClass: "named",
        as: "admin",
        afterWrite: "answer",
        build: (ctx) =>
          Buffer.concat([
            rawBytes({ method: "GET", target: "/livez", version: "HTTP/1.1", host: true, headers: [] }, ctx),
            rawBytes({ method: "CONNECT", target: "/api", version: "HTTP/1.1", host: true, headers: [] }, ctx),
          ]),
      },
    },
    raw("TRACE", { method: "TRACE", target: "/api" }),
    raw("HTTP/2.0 on an HTTP/1 connection", { method: "GET", target: "/api", version: "HTTP/2.0" }),
    raw("duplicate Content-Length", {
      method: "POST",
      target: `${configMaps}?dryRun=All`,
      headers: ["Content-Length: 2", "Content-Length: 3"],
      body: Buffer.from("{}x"),
    }),
    raw("Content-Length and Transfer-Encoding", {
      method: "POST",
      target: `${configMaps}?dryRun=All`,
      headers: ["Content-Length: 2", "Transfer-Encoding: chunked"],
      body: Buffer.from("2\r\n{}\r\n0\r\n\r\n"),
    }),
    http('deep YAML {"a": ×500,000 to selfsubjectreviews as anonymous', {
      method: "POST",
      path: selfSubjectReviews,
      headers: { "Content-Type": "application/yaml" },
      body: deepYaml,
      as: "anonymous",
    }),
    http('deep YAML {"a": ×500,000 to selfsubjectreviews as a user with no permissions', {
      method: "POST",
      path: selfSubjectReviews,
      headers: { "Content-Type": "application/yaml", "Impersonate-User": "h4-nobody" },
      body: deepYaml,
      as: "admin",
    }),
    http("JSON nested 10,000 deep", {
      method: "POST",
      path: `${configMaps}?dryRun=All`,
      headers: { "Content-Type": "application/json" },
      body: deepConfigMap(10_000),
      as: "admin",
    }),
    http("JSON nested 10,001 deep", {
      method: "POST",
      path: `${configMaps}?dryRun=All`,
      headers: { "Content-Type": "application/json" },
      body: deepConfigMap(10_001),
      as: "admin",
    }),
    http("YAML alias bomb", {
      method: "POST",
      path: `${configMaps}?dryRun=All`,
      headers: { "Content-Type": "application/yaml" },
      body: Buffer.from(`apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: h4-bomb\n${aliasBomb(9, 9)}`),
      as: "admin",
    }),
    http("YAML merge key with a non-map value", {
      method: "POST",
      path: `${configMaps}?dryRun=All`,
      headers: { "Content-Type": "application/yaml" },
      body: Buffer.from("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: h4-merge\n  <<: 1\n"),
      as: "admin",
    }),
    http("apply whose object is named otherwise than the URL", {
      method: "PATCH",
      path: `${configMaps}/h4-applied?fieldManager=h4&dryRun=All`,
      headers: { "Content-Type": "application/apply-patch+yaml" },
      body: Buffer.from("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: h4-other\n"),
      as: "admin",
    }),
    http("3 MiB body", {
      method: "POST",
      path: `${configMaps}?dryRun=All`,
      headers: { "Content-Type": "application/json" },
      body: configMapOfSize(maxBodyBytes),
      as: "admin",
    }),
    http("3 MiB + 1 body", {
      method: "POST",
      path: `${configMaps}?dryRun=All`,
      headers: { "Content-Type": "application/json" },
      body: configMapOfSize(maxBodyBytes + 1),
      as: "admin",
    }),
    raw(
      "Content-Length larger than the body, then a close",
      {
        method: "POST",
        target: `${configMaps}?dryRun=All`,
        headers: ["Content-Type: application/json", "Content-Length: 1000"],
        body: Buffer.from('{"apiVersion":"v1"'),
      },
      "close",
    ),
    raw(
      "client disconnecting mid-upload",
      {
        method: "POST",
        target: `${configMaps}?dryRun=All`,
        headers: ["Content-Type: application/json", "Content-Length: 2097152"],
        body: Buffer.alloc(1_048_576, 0x20),
      },
      "close",
    ),
  ];
}
