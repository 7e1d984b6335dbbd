// Create and update bodies nesting deeper than kapi stores are refused with 400 before any step walks them
// (they answered 500 "Maximum call stack size exceeded" on update), and the server goes on serving.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../../runtime/server/start-server.js";
import { openSpecDefinition } from "../crd/open-spec-definition.js";

const things = "/apis/deep.example.com/v1/namespaces/default/things";

function nested(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
}

describe("deep create and update bodies", () => {
  let server: RunningServer;
  let call: (method: string, path: string, body?: string) => Promise<{ status: number; body: string }>;

  beforeAll(async () => {
    server = await startServer({ insecure: true, controllers: false });
    call = async (method, path, body) => {
      const res = await fetch(server.url + path, {
        method,
        headers: { Authorization: `Bearer ${server.adminToken}`, "Content-Type": "application/json" },
        ...(body === undefined ? {} : { body }),
      });
      return { status: res.status, body: await res.text() };
    };
    const crd = openSpecDefinition("deep.example.com", "things", "Thing");
    expect(
      (await call("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", JSON.stringify(crd))).status,
    ).toBe(201);
    for (let i = 0; i < 100 && (await call("GET", things)).status !== 200; i++)
      await new Promise((r) => setTimeout(r, 50));
  });
  afterAll(() => server.close());

  it("stores 900 levels and refuses 2,500 and 6,000 on create and update with kube's words", async () => {
    const thing = (depth: number) =>
      `{"apiVersion":"deep.example.com/v1","kind":"Thing","metadata":{"name":"t"},"spec":${nested(depth)}}`;
    expect((await call("POST", things, thing(900))).status).toBe(201);
    for (const depth of [2500, 6000]) {
      for (const [method, path] of [
        ["POST", things],
        ["PUT", `${things}/t`],
      ] as const) {
        const answer = await call(method, path, thing(depth));
        expect([depth, method, answer.status]).toEqual([depth, method, 400]);
        expect(JSON.parse(answer.body).message).toBe("invalid character '{' exceeded max depth");
      }
    }
    expect((await call("GET", `${things}/t`)).status).toBe(200);
  });
});
