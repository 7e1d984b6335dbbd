import { describe, expect, it } from "vitest";
import { audit } from "../../../../runtime/server/stages/audit.js";
import { fakeContext } from "../fake-context.js";

describe("audit stage", () => {
  it("passes every request on unchanged until its issue fills it", async () => {
    const ctx = fakeContext({ path: "/api/v1/pods", headers: { "impersonate-user": "someone" } });
    const before = { ...ctx };
    let called = 0;
    await audit.run(ctx, async () => {
      called++;
    });
    expect(called).toBe(1);
    expect(ctx).toEqual(before);
  });
});
