import { describe, expect, it } from "vitest";
import { impersonation } from "../../../../runtime/server/stages/impersonation.js";
import { fakeContext } from "../fake-context.js";

describe("impersonation stage", () => {
  it("passes every request on unchanged until its issue fills it", async () => {
    const ctx = fakeContext({ path: "/api/v1/pods", headers: { "impersonate-user": "someone" } });
    const before = { ...ctx };
    let called = 0;
    await impersonation.run(ctx, async () => {
      called++;
    });
    expect(called).toBe(1);
    expect(ctx).toEqual(before);
  });
});
