// kube-apiserver's mux serves /version and the discovery documents with one trailing slash too (the
// upstream Discovery e2e spec reads `/apis/`); ../shared/reference answers 200 for each path below and
// 404 for /openapi/v3/ and /livez/.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type InProcessServer, startServer } from "../../../../runtime/index.js";

let server: InProcessServer;
beforeAll(async () => {
  server = await startServer({ listen: false, controllers: false });
});
afterAll(() => server.close());

async function status(path: string): Promise<number> {
  const response = await server.request({ method: "GET", path });
  await response.arrayBuffer();
  return response.status;
}

describe("paths with a trailing slash", () => {
  it("serves /version and the discovery documents", async () => {
    for (const path of ["/version/", "/api/", "/api/v1/", "/apis/", "/apis/apps/", "/apis/apps/v1/"]) {
      expect([path, await status(path)]).toEqual([path, 200]);
    }
  });

  it("serves the same document as without the slash", async () => {
    const body = async (path: string) => (await server.request({ method: "GET", path })).text();
    expect(await body("/apis/")).toBe(await body("/apis"));
  });

  it("does not serve the others", async () => {
    for (const path of ["/openapi/v3/", "/livez/"]) expect([path, await status(path)]).toEqual([path, 404]);
  });
});
