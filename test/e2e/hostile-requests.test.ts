// Issue 16's named hostile requests, each answered with the status kube-apiserver v1.36.2 gives it, and
// none of them taking the server down. kapi runs as a child process, started anew when a row leaves it
// dead or deaf. The expected codes were checked against kube-apiserver v1.36.2 with
// `npx tsx scripts/compare-hostile.ts --named-only`; "closed" is a connection that ends without an answer.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HttpRequest } from "./hostile/hostile-request.js";
import { outcomeText } from "./hostile/hostile-request.js";
import { KapiChild } from "./hostile/kapi-child.js";
import { namedCases } from "./hostile/named-cases.js";
import { Sender, targetFromKubeconfig } from "./hostile/send-request.js";

interface Expected {
  /** kube-apiserver v1.36.2's answer. */
  kube: number | "closed";
  /** kapi's answer where it cannot be kube's, and why. */
  kapi?: { answer: number | "closed"; why: string };
}

const nodeParser = "Node's HTTP parser refuses the request before kapi sees it";

/** Answers observed from kube-apiserver v1.36.2. */
const expected: Record<string, Expected> = {
  "request target http://": { kube: 404 },
  "request target https://": { kube: 404 },
  // Go's server answers `OPTIONS *` itself, with an empty 200.
  "request target *": { kube: 200, kapi: { answer: 404, why: "Node hands `*` to kapi, which serves no such path" } },
  "CONNECT host:port": { kube: 404 },
  "CONNECT /api": { kube: 405 },
  "absolute-form URL /api": { kube: 200 },
  "absolute-form URL of a list": { kube: 200 },
  "//api": { kube: 404 },
  "//api/v1/namespaces": { kube: 404 },
  // The path is decoded before it is split: a namespace list, as `/api/v1/namespaces/default/configmaps` is not.
  "encoded slash in a namespace": { kube: 200 },
  "encoded slash in a name": { kube: 404 },
  "encoded slash after the prefix": { kube: 200 },
  "bad percent-escape %zz": { kube: 400 },
  "bad percent-escape %": { kube: 400 },
  // Go drops a query pair it cannot decode and serves the rest.
  "bad percent-escape in the query": { kube: 200 },
  "NUL in the path": { kube: 400 },
  "unknown method": { kube: 405, kapi: { answer: 400, why: nodeParser } },
  // The first answer, to the GET; the CONNECT behind it must not bring the server down.
  "CONNECT pipelined behind a GET": {
    kube: 200,
    kapi: { answer: "closed", why: "Node hands the CONNECT over while the GET's response holds the connection" },
  },
  TRACE: { kube: 405 },
  "HTTP/2.0 on an HTTP/1 connection": {
    kube: 505,
    kapi: { answer: 200, why: "Node's HTTP parser takes any HTTP/x.y request line" },
  },
  "duplicate Content-Length": { kube: 400 },
  // kube lets Transfer-Encoding win and decodes `{}`: a ConfigMap without a name.
  "Content-Length and Transfer-Encoding": { kube: 422, kapi: { answer: 400, why: nodeParser } },
  // Authorization comes before the body is read.
  'deep YAML {"a": ×500,000 to selfsubjectreviews as anonymous': { kube: 403 },
  // "yaml: exceeded max depth of 10000"
  'deep YAML {"a": ×500,000 to selfsubjectreviews as a user with no permissions': { kube: 400 },
  "JSON nested 10,000 deep": { kube: 201 },
  // "json parse error: invalid character '[' exceeded max depth"
  "JSON nested 10,001 deep": { kube: 400 },
  // "yaml: document contains excessive aliasing"
  "YAML alias bomb": { kube: 400 },
  // "yaml: map merge requires map or sequence of maps as the value"
  "YAML merge key with a non-map value": { kube: 400 },
  // "the name of the object (h4-other) does not match the name on the URL (h4-applied)"
  "apply whose object is named otherwise than the URL": { kube: 400 },
  // Read whole, then refused by validation: a ConfigMap holds at most 1 MiB.
  "3 MiB body": { kube: 422 },
  // "Request entity too large: limit is 3145728"
  "3 MiB + 1 body": { kube: 413 },
  "Content-Length larger than the body, then a close": { kube: "closed" },
  "client disconnecting mid-upload": { kube: "closed" },
};

const livez: HttpRequest = {
  kind: "http",
  inputClass: "livez",
  method: "GET",
  path: "/livez",
  headers: {},
  as: "admin",
};

describe("named hostile requests", () => {
  let kapi: KapiChild | undefined;
  let sender: Sender | undefined;

  async function start(): Promise<Sender> {
    kapi = await KapiChild.start();
    sender = new Sender(targetFromKubeconfig("kapi", { path: kapi.kubeconfigPath }), 4);
    return sender;
  }

  async function stop(): Promise<void> {
    sender?.close();
    await kapi?.stop();
  }

  async function serving(): Promise<boolean> {
    if (kapi === undefined || sender === undefined || kapi.exitStatus !== undefined) return false;
    const outcome = await sender.send(livez, { timeoutMs: 5_000 });
    return outcome.kind === "status" && outcome.status === 200;
  }

  /** The server, started anew when an earlier row left it down, so that each row is judged on its own. */
  async function server(): Promise<Sender> {
    if (sender !== undefined && (await serving())) return sender;
    await stop();
    return start();
  }

  beforeAll(start, 60_000);
  afterAll(stop);

  it("has an expected answer for every named case", () => {
    expect(namedCases().map((c) => c.name)).toEqual(Object.keys(expected));
  });

  for (const { name, request } of namedCases()) {
    const row = expected[name] as Expected;
    const answer = row.kapi?.answer ?? row.kube;
    it(`${name} → ${answer}${row.kapi === undefined ? "" : ` (kube: ${row.kube}; ${row.kapi.why})`}`, async () => {
      const client = await server();
      const outcome = await client.send(request, { timeoutMs: 10_000 });
      expect(outcomeText(outcome)).toBe(String(answer));
      expect(await serving(), `kapi serves after the request (${kapi?.exitStatus ?? "running"})`).toBe(true);
    }, 60_000);
  }
});
