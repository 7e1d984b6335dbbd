import { describe, expect, it } from "vitest";
import { requestInfo } from "../../../../runtime/server/stages/request-info-stage.js";
import { fakeContext, passOn } from "../fake-context.js";

describe("requestInfo stage", () => {
  it("sets the request info and the generated route of a resource request", async () => {
    const ctx = fakeContext({ path: "/api/v1/namespaces/ns/pods/p" });
    await requestInfo.run(ctx, passOn);
    expect(ctx.info).toMatchObject({ verb: "get", resource: "pods", name: "p" });
    expect(ctx.route?.route.path).toBe("/api/v1/namespaces/{namespace}/pods/{name}");
    expect(ctx.route?.params).toEqual({ namespace: "ns", name: "p" });
  });

  it("matches a legacy /watch/ path on the route without the segment", async () => {
    const ctx = fakeContext({ path: "/apis/apps/v1/watch/namespaces/ns/deployments" });
    await requestInfo.run(ctx, passOn);
    expect(ctx.info?.verb).toBe("watch");
    expect(ctx.route?.route.path).toBe("/apis/apps/v1/namespaces/{namespace}/deployments");
  });

  it("finds no route for unknown resources nor for versions disabled by default", async () => {
    for (const path of ["/api/v1/nothings", "/apis/resource.k8s.io/v1alpha3/devicetaintrules"]) {
      const ctx = fakeContext({ path });
      await requestInfo.run(ctx, passOn);
      expect(ctx.info?.isResourceRequest).toBe(true);
      expect(ctx.route).toBeUndefined();
    }
  });

  it("calls the next stage", async () => {
    let called = false;
    await requestInfo.run(fakeContext({ path: "/version" }), async () => {
      called = true;
    });
    expect(called).toBe(true);
  });
});
