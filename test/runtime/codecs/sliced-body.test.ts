import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { encodeObject, GZIP_THRESHOLD_BYTES } from "../../../runtime/codecs/encode-response.js";
import { jsonPiecesWithArray } from "../../../runtime/codecs/json-pieces.js";
import { SLICE_MS, writeSliced } from "../../../runtime/codecs/sliced-body.js";
import { InProcessIncomingMessage } from "../../../runtime/server/in-process-request.js";
import { InProcessResponse } from "../../../runtime/server/in-process-response.js";

describe("jsonPiecesWithArray", () => {
  const value = {
    kind: "Table",
    apiVersion: "meta.k8s.io/v1",
    skipped: undefined,
    metadata: { resourceVersion: "7", note: "<&>\u2028" },
    rows: [] as unknown[],
    after: [1, null],
  };
  const rows = [{ cells: ["a<b", 1] }, undefined, { cells: ["\u2029", { x: "&" }] }, { cells: [] }];

  it("joins to encodeObject's compact JSON of the whole value, in any batching", () => {
    const whole = encodeObject({ kind: "json", pretty: false }, { ...value, rows }).body.toString();
    for (const size of [1, 2, 3, 4]) {
      const batches = [];
      for (let at = 0; at < rows.length; at += size) batches.push(rows.slice(at, at + size));
      const joined = Buffer.concat([...jsonPiecesWithArray(value, "rows", batches)]).toString();
      expect(joined).toBe(whole);
    }
  });

  it("writes an empty array when there are no batches", () => {
    const joined = Buffer.concat([...jsonPiecesWithArray(value, "rows", [])]).toString();
    expect(joined).toBe(encodeObject({ kind: "json", pretty: false }, value).body.toString());
  });
});

function exchange(headers: Record<string, string> = {}) {
  const req = new InProcessIncomingMessage({ path: "/", headers }, "token");
  const res = new InProcessResponse(req as never);
  return { req, res };
}

async function bodyOf(res: InProcessResponse): Promise<{ head: Response; bytes: Buffer }> {
  const head = await res.response;
  return { head, bytes: Buffer.from(await head.arrayBuffer()) };
}

function* pieces(count: number, size: number): Generator<Uint8Array> {
  for (let i = 0; i < count; i++) {
    yield new Uint8Array(0);
    yield Buffer.alloc(size, 97 + (i % 26));
  }
}

describe("writeSliced", () => {
  it("writes the joined body with its Content-Length, as one write would", async () => {
    for (const [count, size] of [
      [3, 10],
      [500, 1000],
      [3, 200_000],
    ] as const) {
      const { req, res } = exchange();
      const expected = Buffer.concat([...pieces(count, size)]);
      const written = writeSliced(
        req as never,
        res as never,
        200,
        { contentType: "application/json", pieces: pieces(count, size) },
        { Warning: ['299 - "x"'] },
        true,
      );
      const { head, bytes } = await bodyOf(res);
      await written;
      expect(head.status).toBe(200);
      expect(head.headers.get("content-type")).toBe("application/json");
      expect(head.headers.get("content-length")).toBe(String(expected.length));
      expect(head.headers.get("warning")).toBe('299 - "x"');
      expect(bytes.equals(expected)).toBe(true);
    }
  });

  it("gzips a body above the threshold for a client that accepts it", async () => {
    const { req, res } = exchange({ "accept-encoding": "gzip" });
    const expected = Buffer.concat([...pieces(300, 1000)]);
    expect(expected.length).toBeGreaterThan(GZIP_THRESHOLD_BYTES);
    const written = writeSliced(
      req as never,
      res as never,
      200,
      { contentType: "application/json", pieces: pieces(300, 1000) },
      undefined,
      true,
    );
    const { head, bytes } = await bodyOf(res);
    await written;
    expect(head.headers.get("content-encoding")).toBe("gzip");
    expect(head.headers.get("vary")).toBe("Accept-Encoding");
    expect(head.headers.get("content-length")).toBe(String(bytes.length));
    expect(gunzipSync(bytes).equals(expected)).toBe(true);
  });

  it("lets other work run while the pieces take long to make", async () => {
    const { req, res } = exchange();
    let ranBetween = false;
    setImmediate(() => {
      ranBetween = true;
    });
    let doneBeforeOther = false;
    function* slow(): Generator<Uint8Array> {
      for (let i = 0; i < 3; i++) {
        const until = performance.now() + SLICE_MS + 1;
        while (performance.now() < until);
        yield Buffer.from("x");
      }
      doneBeforeOther = !ranBetween;
    }
    const written = writeSliced(
      req as never,
      res as never,
      200,
      { contentType: "text/plain", pieces: slow() },
      undefined,
      false,
    );
    await bodyOf(res);
    await written;
    expect(doneBeforeOther).toBe(false);
  });

  it("stops making the body once the client is gone", async () => {
    const { req, res } = exchange();
    let made = 0;
    function* endless(): Generator<Uint8Array> {
      for (;;) {
        made++;
        const until = performance.now() + 1;
        while (performance.now() < until);
        yield Buffer.from("x");
        if (made === 20) res.destroy();
      }
    }
    await writeSliced(
      req as never,
      res as never,
      200,
      { contentType: "text/plain", pieces: endless() },
      undefined,
      false,
    );
    expect(made).toBeLessThan(40);
    expect(res.headersSent).toBe(false);
  });
});
