import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { StatusError } from "../../../../runtime/errors/status-error.js";
import { handler } from "../../../../runtime/server/stages/handler-stage.js";
import { requestInfo } from "../../../../runtime/server/stages/request-info-stage.js";
import { type FakeRequest, fakeContext, passOn } from "../fake-context.js";

async function answer(request: FakeRequest): Promise<{ code: number; body: string; error?: StatusError }> {
  const ctx = fakeContext(request);
  const written = { code: 0, body: "" };
  ctx.res = {
    setHeader() {},
    writeHead(code: number) {
      written.code = code;
    },
    end(body?: string) {
      written.body = body ?? "";
    },
  } as unknown as ServerResponse;
  await requestInfo.run(ctx, passOn);
  try {
    await handler.run(ctx, passOn);
    return written;
  } catch (error) {
    expect(error).toBeInstanceOf(StatusError);
    return { code: (error as StatusError).code, body: "", error: error as StatusError };
  }
}

describe("handler stage", () => {
  it("serves the non-resource endpoints", async () => {
    expect((await answer({ path: "/version" })).code).toBe(200);
    expect((await answer({ path: "/apis/apps/v1" })).code).toBe(200);
    expect(await answer({ path: "/livez" })).toEqual({ code: 200, body: "ok" });
  });

  it("answers unknown paths 404 with kube's wording", async () => {
    for (const path of ["/nope", "/apis/nope", "/apis/nope/v1/things", "/api/v2", "/livez/nope"]) {
      const { error } = await answer({ path });
      expect(error?.status.message).toBe("the server could not find the requested resource");
      expect(error?.code).toBe(404);
    }
  });

  it("answers 405 to a method a path does not allow", async () => {
    for (const request of [
      { method: "POST", path: "/version" },
      { method: "DELETE", path: "/apis" },
      { method: "POST", path: "/api/v1/componentstatuses" },
      { method: "PUT", path: "/api/v1/namespaces/ns/pods" },
    ]) {
      const { error } = await answer(request);
      expect(error?.status).toMatchObject({
        reason: "MethodNotAllowed",
        message: "the server does not allow this method on the requested resource",
        code: 405,
      });
    }
  });

  it("hands resource requests to their verb's handler", async () => {
    const missing = await answer({ path: "/api/v1/namespaces/ns/pods/p" });
    expect(missing.error?.status).toMatchObject({ reason: "NotFound", message: 'pods "p" not found', code: 404 });
    const unserved = await answer({ path: "/api/v1/namespaces/ns/configmaps/c/status" });
    expect(unserved.error?.status.message).toBe("the server could not find the requested resource");
  });
});
