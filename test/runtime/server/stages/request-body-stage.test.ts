import { describe, expect, it } from "vitest";
import { StatusError } from "../../../../runtime/errors/status-error.js";
import { maxRequestBodyBytes, requestBody } from "../../../../runtime/server/stages/request-body-stage.js";
import { fakeContext, passOn } from "../fake-context.js";

const tooLarge = {
  kind: "Status",
  apiVersion: "v1",
  metadata: {},
  status: "Failure",
  message: "Request entity too large: limit is 3145728",
  reason: "RequestEntityTooLarge",
  code: 413,
};

async function failure(promise: Promise<void>): Promise<StatusError> {
  const error = await promise.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(StatusError);
  return error as StatusError;
}

describe("requestBody stage", () => {
  it("reads a body up to exactly 3 MiB", async () => {
    const body = Buffer.alloc(maxRequestBodyBytes, 1);
    const ctx = fakeContext({ method: "POST", headers: { "content-length": String(body.length) }, body });
    await requestBody.run(ctx, passOn);
    expect(ctx.body?.length).toBe(maxRequestBodyBytes);
  });

  it("refuses a declared length over 3 MiB before reading it", async () => {
    const ctx = fakeContext({ method: "POST", headers: { "content-length": String(maxRequestBodyBytes + 1) } });
    expect((await failure(requestBody.run(ctx, passOn))).status).toEqual(tooLarge);
  });

  it("refuses a chunked body that grows past 3 MiB", async () => {
    const chunk = Buffer.alloc(1024 * 1024);
    const ctx = fakeContext({
      method: "POST",
      headers: { "transfer-encoding": "chunked" },
      body: [chunk, chunk, chunk, Buffer.alloc(1)],
    });
    let called = false;
    const error = await failure(
      requestBody.run(ctx, async () => {
        called = true;
      }),
    );
    expect(error.status).toEqual(tooLarge);
    expect(called).toBe(false);
  });

  it("leaves requests without a body alone", async () => {
    const ctx = fakeContext({ method: "GET" });
    await requestBody.run(ctx, passOn);
    expect(ctx.body).toBeUndefined();
  });
});
