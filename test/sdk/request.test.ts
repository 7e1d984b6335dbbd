import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ClientCredentials } from "../../sdk/credentials.js";
import { loadKubeconfig } from "../../sdk/kubeconfig.js";
import { requestJson } from "../../sdk/request.js";

let server: Server;
let url: string;
let dir: string;
const seen: { method: string | undefined; url: string | undefined; authorization: string | undefined; body: string }[] =
  [];
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "kapi-request-"));
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      seen.push({ method: req.method, url: req.url, authorization: req.headers.authorization, body });
      res.statusCode = req.headers.authorization === undefined ? 401 : 201;
      res.setHeader("content-type", "application/json");
      res.end(req.url === "/prefix/text" ? "plain" : JSON.stringify({ ok: true }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/prefix`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

function client(user: string): ClientCredentials {
  const text = `clusters:
- name: c
  cluster: {server: "${url}"}
users:
- name: u
  user: ${user}
contexts:
- name: x
  context: {cluster: c, user: u}
current-context: x
`;
  return new ClientCredentials(loadKubeconfig({ text, baseDir: dir }));
}

describe("requestJson", () => {
  it("sends JSON below the server's path with the user's token and parses the answer", async () => {
    seen.length = 0;
    const response = await requestJson(client("{token: abc}"), {
      method: "POST",
      path: "/api/v1/namespaces?dryRun=All",
      body: { metadata: { name: "x" } },
    });
    expect(response).toMatchObject({ status: 201, body: { ok: true } });
    expect(seen).toEqual([
      {
        method: "POST",
        url: "/prefix/api/v1/namespaces?dryRun=All",
        authorization: "Bearer abc",
        body: '{"metadata":{"name":"x"}}',
      },
    ]);
    expect((await requestJson(client("{token: abc}"), { path: "/text" })).body).toBe("plain");
  });

  it("reads the token file at each request, falling back to the inline token", async () => {
    seen.length = 0;
    const file = join(dir, "token");
    writeFileSync(file, "first\n");
    const credentials = client(`{token: inline, tokenFile: ${file}}`);
    await requestJson(credentials, { path: "/" });
    writeFileSync(file, "second");
    await requestJson(credentials, { path: "/" });
    rmSync(file);
    await requestJson(credentials, { path: "/" });
    expect(seen.map((s) => s.authorization)).toEqual(["Bearer first", "Bearer second", "Bearer inline"]);
  });

  it("does not retry a 401 without an exec plugin", async () => {
    seen.length = 0;
    expect((await requestJson(client("{}"), { path: "/" })).status).toBe(401);
    expect(seen).toHaveLength(1);
  });
});
