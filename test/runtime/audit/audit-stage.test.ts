import { EventEmitter } from "node:events";
import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { sinkBackend } from "../../../runtime/audit/audit-backend.js";
import type { AuditEvent } from "../../../runtime/audit/audit-sink.js";
import { startServer } from "../../../runtime/index.js";
import { audit } from "../../../runtime/server/stages/audit-stage.js";
import { fakeContext } from "../server/fake-context.js";

const configMap = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "cm" }, data: { a: "1" } };

describe("audit stages and levels", () => {
  it("omits the stages the policy omits and managedFields where asked", async () => {
    const events: AuditEvent[] = [];
    const server = await startServer({
      listen: false,
      controllers: false,
      audit: {
        sink: (event) => events.push(event),
        policy: {
          omitStages: ["RequestReceived"],
          omitManagedFields: true,
          rules: [
            { level: "RequestResponse", verbs: ["create"] },
            { level: "RequestResponse", verbs: ["get"], omitManagedFields: false },
            { level: "None" },
          ],
        },
      },
    });
    try {
      await (
        await server.request({ method: "POST", path: "/api/v1/namespaces/default/configmaps", body: configMap })
      ).text();
      await (await server.request({ path: "/api/v1/namespaces/default/configmaps/cm" })).text();
      await (await server.request({ path: "/api/v1/namespaces/default/configmaps" })).text();
      expect(events.map((e) => [e.verb, e.stage])).toEqual([
        ["create", "ResponseComplete"],
        ["get", "ResponseComplete"],
      ]);
      const [created, read] = events as [AuditEvent, AuditEvent];
      expect(created.requestObject).toEqual({
        kind: "ConfigMap",
        apiVersion: "v1",
        metadata: { name: "cm" },
        data: { a: "1" },
      });
      expect((created.responseObject as { metadata: object }).metadata).not.toHaveProperty("managedFields");
      expect((read.responseObject as { metadata: object }).metadata).toHaveProperty("managedFields");
    } finally {
      await server.close();
    }
  });

  it("keeps the request object from the Request level and the response object only at RequestResponse", async () => {
    const events: AuditEvent[] = [];
    const server = await startServer({
      listen: false,
      controllers: false,
      audit: {
        sink: (event) => events.push(event),
        policy: { rules: [{ level: "Request", namespaces: ["default"] }, { level: "Metadata" }] },
      },
    });
    try {
      await (
        await server.request({ method: "POST", path: "/api/v1/namespaces/default/configmaps", body: configMap })
      ).text();
      await (
        await server.request({ method: "POST", path: "/api/v1/namespaces/kube-system/configmaps", body: configMap })
      ).text();
      const complete = events.filter((e) => e.stage === "ResponseComplete");
      expect(complete.map((e) => e.level)).toEqual(["Request", "Metadata"]);
      expect(complete[0]?.requestObject).toBeDefined();
      expect(complete[0]?.responseObject).toBeUndefined();
      expect(complete[1]?.requestObject).toBeUndefined();
      expect(complete[1]?.objectRef).toEqual({
        resource: "configmaps",
        namespace: "kube-system",
        name: "cm",
        apiVersion: "v1",
      });
    } finally {
      await server.close();
    }
  });

  it("counts events and levels in kube's audit metrics", async () => {
    const server = await startServer({
      listen: false,
      controllers: false,
      audit: {
        sink: () => {},
        policy: { rules: [{ level: "None", nonResourceURLs: ["/healthz"] }, { level: "Metadata" }] },
      },
    });
    try {
      await (await server.request({ path: "/healthz" })).text();
      await (await server.request({ path: "/version" })).text();
      const text = await server.metrics.text();
      expect(text).toContain(
        "# HELP apiserver_audit_event_total [ALPHA] Counter of audit events generated and sent to the audit backend.",
      );
      expect(text).toMatch(/\napiserver_audit_event_total 2\n/);
      expect(text).toMatch(/\napiserver_audit_level_total\{level="None"\} 1\n/);
      expect(text).toMatch(/\napiserver_audit_level_total\{level="Metadata"\} 1\n/);
    } finally {
      await server.close();
    }
  });
});

describe("audit stage failures", () => {
  const respond = (ctx: ReturnType<typeof fakeContext>) => {
    ctx.res = Object.assign(new EventEmitter(), {
      statusCode: 200,
      destroyed: false,
      headersSent: false,
      setHeader: () => {},
      writeHead: () => {},
      flushHeaders: () => {},
      write: () => true,
      end: () => {},
    }) as unknown as ServerResponse;
    ctx.user = { name: "jane", groups: ["system:authenticated"] };
    return ctx;
  };

  it("emits Panic, and no ResponseComplete, when the request throws something other than a Status", async () => {
    const events: AuditEvent[] = [];
    const ctx = respond(fakeContext({ path: "/version" }));
    ctx.server.audit = { policy: { rules: [{ level: "Metadata" }] }, backend: sinkBackend((e) => events.push(e)) };
    await expect(
      audit.run(ctx, async () => {
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    ctx.res.emit("finish");
    expect(events.map((e) => e.stage)).toEqual(["RequestReceived", "Panic"]);
    expect(events[1]?.responseStatus).toEqual({
      metadata: {},
      status: "Failure",
      message: "APIServer panic'd: boom",
      reason: "InternalError",
      code: 500,
    });
  });

  it("fails the request when a blocking-strict backend cannot take RequestReceived", async () => {
    const ctx = respond(fakeContext({ path: "/version" }));
    const backend = { processEvents: () => false, shutdown: async () => {} };
    ctx.server.audit = { policy: { rules: [{ level: "Metadata" }] }, backend };
    let called = false;
    await expect(
      audit.run(ctx, async () => {
        called = true;
      }),
    ).rejects.toThrow("Internal error occurred: failed to store audit event");
    expect(called).toBe(false);
  });
});
