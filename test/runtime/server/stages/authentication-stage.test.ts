import { describe, expect, it } from "vitest";
import { adminUser } from "../../../../runtime/access/user-info.js";
import { StatusError } from "../../../../runtime/errors/status-error.js";
import { authentication } from "../../../../runtime/server/stages/authentication-stage.js";
import { fakeContext, passOn, testToken } from "../fake-context.js";

describe("authentication stage", () => {
  it("lets the admin token through as the admin user", async () => {
    const ctx = fakeContext({ headers: { authorization: `Bearer ${testToken}` } });
    await authentication.run(ctx, passOn);
    expect(ctx.user).toEqual(adminUser);
  });

  it.each([
    ["no credential", {}],
    ["a wrong token", { authorization: "Bearer nope" }],
    ["a token of another length", { authorization: `Bearer ${testToken}x` }],
    ["basic auth", { authorization: `Basic ${Buffer.from(`admin:${testToken}`).toString("base64")}` }],
  ])("answers 401 Unauthorized to %s", async (_what, headers: Record<string, string>) => {
    const ctx = fakeContext({ headers });
    const error = await authentication.run(ctx, passOn).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StatusError);
    expect((error as StatusError).status).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: "Unauthorized",
      reason: "Unauthorized",
      code: 401,
    });
    expect(ctx.user).toBeUndefined();
  });
});
