// Warning headers bounded as kube's warning recorder bounds them. Checked against kube-apiserver v1.36.2: a
// ConfigMap create with 300 unknown fields of 55 characters (`unknown field "…"`, 71 characters a warning)
// answers 58 Warning headers, the first 58 warnings whole.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { warningHeaders } from "../../../runtime/handlers/warning-headers.js";
import { type RunningServer, startServer } from "../../../runtime/index.js";

describe("warningHeaders", () => {
  it("writes each text once, in order", () => {
    expect(warningHeaders(["a", "b", "a", "", "c"])).toEqual(['299 - "a"', '299 - "b"', '299 - "c"']);
  });

  it("keeps everything while the texts stay within 4096 characters", () => {
    const texts = Array.from({ length: 16 }, (_, i) => `${i}`.padEnd(256, "x"));
    expect(warningHeaders(texts)).toHaveLength(16);
  });

  it("cuts every warning to 256 characters once past 4096, and stops adding after that total", () => {
    const texts = Array.from({ length: 40 }, (_, i) => `${i}:`.padEnd(1000, "x"));
    const headers = warningHeaders(texts);
    // 4 whole warnings fit; the 5th starts truncation, and 16 cut ones reach the 4096 past which none is added.
    expect(headers).toHaveLength(16);
    expect(headers[0]).toBe(`299 - "${"0:".padEnd(256, "x")}"`);
    expect(headers.every((h) => h.length === '299 - ""'.length + 256)).toBe(true);
  });

  it("counts characters, not bytes", () => {
    expect(warningHeaders(["é".repeat(300), "ü".repeat(4000)])[0]).toBe(
      Buffer.from(`299 - "${"é".repeat(256)}"`, "utf8").toString("latin1"),
    );
  });
});

describe("warnings of a request with many unknown fields", () => {
  const token = "warning-headers-token";
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ insecure: true, adminToken: token, controllers: false });
  });
  afterAll(() => server.close());

  it("answers as many Warning headers as kube", async () => {
    const body: Record<string, unknown> = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "warned" } };
    for (let i = 0; i < 300; i++) body[`unknownField${String(i).padStart(3, "0")}${"x".repeat(40)}`] = 1;
    const res = await fetch(`${server.url}/api/v1/namespaces/default/configmaps?dryRun=All&fieldValidation=Warn`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(201);
    const warnings = res.headers.get("warning")?.split(/, (?=299 )/) ?? [];
    expect(warnings).toHaveLength(58);
    expect(warnings[57]).toBe(`299 - "unknown field \\"unknownField057${"x".repeat(40)}\\""`);
  });
});
