import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeObject, GZIP_THRESHOLD_BYTES, writeEncoded } from "../../../runtime/codecs/encode-response.js";

describe("encodeObject", () => {
  const value = { kind: "ConfigMap", apiVersion: "v1", data: { html: "<a href='x'>&</a>", empty: {}, list: [] } };

  it("writes compact JSON with a newline and Go's HTML escapes", () => {
    const { contentType, body } = encodeObject({ kind: "json", pretty: false }, value);
    expect(contentType).toBe("application/json");
    expect(body.toString()).toBe(
      '{"kind":"ConfigMap","apiVersion":"v1","data":{"html":"\\u003ca href=\'x\'\\u003e\\u0026\\u003c/a\\u003e","empty":{},"list":[]}}\n',
    );
    expect(JSON.parse(body.toString())).toEqual(value);
  });

  it("indents pretty JSON by two spaces without a trailing newline", () => {
    const { body } = encodeObject({ kind: "json", pretty: true }, { a: 1, b: { c: [1] }, d: {} });
    expect(body.toString()).toBe('{\n  "a": 1,\n  "b": {\n    "c": [\n      1\n    ]\n  },\n  "d": {}\n}');
  });

  it("writes YAML with sorted keys and compact sequences", () => {
    const { contentType, body } = encodeObject(
      { kind: "yaml" },
      {
        kind: "Pod",
        apiVersion: "v1",
        metadata: { name: "p", creationTimestamp: "2024-01-01T00:00:00Z", labels: { b: "true", a: "x" } },
        spec: { containers: [{ name: "c", image: "nginx", args: ["1", "- x"] }] },
      },
    );
    expect(contentType).toBe("application/yaml");
    expect(body.toString()).toBe(
      [
        "apiVersion: v1",
        "kind: Pod",
        "metadata:",
        '  creationTimestamp: "2024-01-01T00:00:00Z"',
        "  labels:",
        "    a: x",
        '    b: "true"',
        "  name: p",
        "spec:",
        "  containers:",
        "  - args:",
        '    - "1"',
        "    - '- x'",
        "    image: nginx",
        "    name: c",
        "",
      ].join("\n"),
    );
  });

  it("encodes Tables and PartialObjectMetadata as JSON or, when asked, YAML", () => {
    const table = { kind: "Table" };
    expect(
      encodeObject({ kind: "table", version: "v1", includeObject: "None", pretty: false }, table).contentType,
    ).toBe("application/json");
    expect(
      encodeObject(
        { kind: "table", version: "v1", includeObject: "None", pretty: false, yaml: true },
        table,
      ).body.toString(),
    ).toBe("kind: Table\n");
    expect(encodeObject({ kind: "partial-object-metadata", version: "v1", pretty: true }, table).body.toString()).toBe(
      '{\n  "kind": "Table"\n}',
    );
  });
});

describe("writeEncoded", () => {
  let server: Server;
  let port = 0;
  let nextBody: Buffer = Buffer.alloc(0);

  beforeAll(async () => {
    server = createServer((req, res) => {
      writeEncoded(req, res, 201, { contentType: "application/json", body: nextBody }, { "Audit-Id": "a1" }, true);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  interface Answer {
    status: number;
    headers: Record<string, string | string[] | undefined>;
    body: Buffer;
  }

  function fetchRaw(body: Buffer, acceptEncoding?: string): Promise<Answer> {
    nextBody = body;
    return new Promise((resolve, reject) => {
      const headers = acceptEncoding === undefined ? {} : { "Accept-Encoding": acceptEncoding };
      const req = request({ host: "127.0.0.1", port, path: "/", headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      });
      req.on("error", reject);
      req.end();
    });
  }

  const big = Buffer.alloc(GZIP_THRESHOLD_BYTES + 1, "a");

  it("compresses a body above 128 KiB when the client accepts gzip", async () => {
    const answer = await fetchRaw(big, "deflate, gzip");
    expect(answer.status).toBe(201);
    expect(answer.headers["content-encoding"]).toBe("gzip");
    expect(answer.headers.vary).toBe("Accept-Encoding");
    expect(answer.headers["content-type"]).toBe("application/json");
    expect(answer.headers["audit-id"]).toBe("a1");
    expect(Number(answer.headers["content-length"])).toBe(answer.body.length);
    expect(gunzipSync(answer.body).equals(big)).toBe(true);
  });

  it("leaves a body of exactly 128 KiB alone", async () => {
    const answer = await fetchRaw(Buffer.alloc(GZIP_THRESHOLD_BYTES, "a"), "gzip");
    expect(answer.headers["content-encoding"]).toBeUndefined();
    expect(answer.body.length).toBe(GZIP_THRESHOLD_BYTES);
  });

  it("compresses only for a token that is exactly gzip", async () => {
    for (const encoding of [undefined, "br", "gzip;q=1", "x-gzip"]) {
      const answer = await fetchRaw(big, encoding);
      expect(answer.headers["content-encoding"]).toBeUndefined();
      expect(answer.headers.vary).toBeUndefined();
      expect(answer.body.equals(big)).toBe(true);
    }
  });
});
