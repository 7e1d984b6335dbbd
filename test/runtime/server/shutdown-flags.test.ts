import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { checksOf, type HealthChecks, ping, runHealthChecks } from "../../../runtime/server/endpoints/health.js";
import { PostStartHooks } from "../../../runtime/server/post-start-hooks.js";
import { startServer } from "../../../runtime/server/start-server.js";

describe("--livez-grace-period", () => {
  const hooks = new PostStartHooks(() => {});
  hooks.register("rbac/bootstrap-roles", new Promise(() => {}));
  const run = (checks: HealthChecks, endpoint: "livez" | "readyz" | "healthz") =>
    runHealthChecks(endpoint, checksOf(checks, endpoint), new URLSearchParams("verbose"), () => {});

  it("counts unfinished post-start hooks as ok on /livez alone until the period ends", async () => {
    const inGrace: HealthChecks = {
      livez: [ping],
      readyz: [ping],
      postStartHooks: hooks,
      livezGraceEndsAt: Date.now() + 60_000,
    };
    expect(await run(inGrace, "livez")).toEqual({
      code: 200,
      body: "[+]ping ok\n[+]poststarthook/rbac/bootstrap-roles ok\nlivez check passed\n",
    });
    expect((await run(inGrace, "healthz")).code).toBe(500);
    expect((await run(inGrace, "readyz")).code).toBe(500);
    const after: HealthChecks = { ...inGrace, livezGraceEndsAt: Date.now() - 1 };
    expect(await run(after, "livez")).toEqual({
      code: 500,
      body: "[+]ping ok\n[-]poststarthook/rbac/bootstrap-roles failed: reason withheld\nlivez check failed\n",
    });
  });
});

describe("--shutdown-send-retry-after", () => {
  it("answers new requests 429 with Retry-After and Connection: close while the ones in flight finish", async () => {
    const server = await startServer({ insecure: true, shutdownSendRetryAfter: true, controllers: false });
    const { port } = new URL(server.url);
    // A request in flight: its body has not arrived, so it is counted and the shutdown waits for it.
    const socket = connect(Number(port), "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    const answer = new Promise<string>((resolve) => {
      let text = "";
      socket.on("data", (chunk) => {
        text += chunk.toString();
      });
      socket.on("close", () => resolve(text));
    });
    const body = JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "d-held" } });
    socket.write(
      `POST /api/v1/namespaces/default/configmaps HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${server.adminToken}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
    );
    // Let the request reach the handler's body read before the shutdown starts.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const closed = server.close();
    await new Promise((resolve) => setTimeout(resolve, 50));

    const refused = await server.request({ path: "/api/v1/namespaces" });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("5");
    expect(refused.headers.get("connection")).toBe("close");
    expect(refused.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await refused.text()).toBe("The apiserver is shutting down, please try again later.\n");
    // Health checks are exempt from the 429; draining, they get the wait group's 503 as in kube.
    expect((await server.request({ path: "/readyz" })).status).toBe(503);

    socket.write(body);
    expect(await answer).toMatch(/^HTTP\/1\.1 201 Created/);
    await closed;
  });
});
