import { EventEmitter } from "node:events";
import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import type { AuditEvent } from "../../../../runtime/server/audit-sink.js";
import { audit } from "../../../../runtime/server/stages/audit-stage.js";
import { fakeContext } from "../fake-context.js";

describe("audit stage", () => {
  it("passes every request on unchanged when the server keeps no audit log", async () => {
    const ctx = fakeContext({ path: "/api/v1/pods", headers: { "impersonate-user": "someone" } });
    const before = { ...ctx };
    let called = 0;
    await audit.run(ctx, async () => {
      called++;
    });
    expect(called).toBe(1);
    expect(ctx).toEqual(before);
  });

  it("records one Metadata event per request with the annotations admission added", async () => {
    const events: AuditEvent[] = [];
    const ctx = fakeContext({ method: "POST", path: "/apis/apps/v1/namespaces/ns/deployments" });
    const headers: Record<string, unknown> = {};
    ctx.res = Object.assign(new EventEmitter(), {
      statusCode: 201,
      setHeader: (name: string, value: unknown) => {
        headers[name] = value;
      },
    }) as unknown as ServerResponse;
    ctx.server.audit = (event) => events.push(event);
    ctx.user = { name: "alice", groups: ["devs"] };
    ctx.info = {
      isResourceRequest: true,
      path: "/apis/apps/v1/namespaces/ns/deployments",
      verb: "create",
      apiPrefix: "apis",
      group: "apps",
      version: "v1",
      namespace: "ns",
      resource: "deployments",
      subresource: "",
      name: "",
      parts: ["deployments"],
    };
    await audit.run(ctx, async () => {
      ctx.objectName = "web";
      ctx.auditAnnotations = { "policy/key": "value" };
    });
    ctx.res.emit("finish");
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      kind: "Event",
      apiVersion: "audit.k8s.io/v1",
      level: "Metadata",
      auditID: headers["Audit-Id"],
      stage: "ResponseComplete",
      verb: "create",
      user: { username: "alice", groups: ["devs"] },
      objectRef: { resource: "deployments", namespace: "ns", name: "web", apiGroup: "apps", apiVersion: "v1" },
      responseStatus: { code: 201 },
      annotations: { "policy/key": "value" },
    });
    expect(events[0]?.stageTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  });
});
