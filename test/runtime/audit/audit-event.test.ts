import { describe, expect, it } from "vitest";
import type { AuditBackend } from "../../../runtime/audit/audit-backend.js";
import { microTime, RequestAudit } from "../../../runtime/audit/audit-event.js";
import type { Level } from "../../../runtime/audit/audit-policy.js";
import type { AuditEvent } from "../../../runtime/audit/audit-sink.js";

const isoMicro = (date: Date) => `${date.toISOString().slice(0, -1)}000Z`;

function requestAudit(level: Level): { audit: RequestAudit; events: AuditEvent[] } {
  const events: AuditEvent[] = [];
  const backend: AuditBackend = {
    processEvents(batch) {
      events.push(...batch);
      return true;
    },
    shutdown: async () => {},
  };
  const audit = new RequestAudit(
    { level, omitStages: [], omitManagedFields: false },
    backend,
    {
      auditID: "b-0001",
      received: new Date(Date.UTC(2026, 10, 28, 13, 50, 12, 345)),
      requestURI: "/api/v1/namespaces/b-ev/configmaps/one",
      verb: "delete",
      user: undefined,
      sourceIPs: [],
      userAgent: undefined,
      objectRef: undefined,
    },
    () => undefined,
  );
  return { audit, events };
}

describe("audit events", () => {
  it("formats timestamps as toISOString with microseconds, across seconds, before 1970 and in any order", () => {
    const times = [0, 1, 999, 1000, 1001, -1, -999, -1000, -1001, 1_795_873_812_999, 1_795_873_813_000];
    for (let i = 0; i < 3000; i++) times.push(1_795_873_812_000 + ((i * 7919) % 5000) - 2500);
    for (let i = 0; i < 2000; i++) times.push(Math.round((((i * 2654435761) % 4294967296) / 4294967296 - 0.5) * 2e13));
    for (const time of times) expect(microTime(new Date(time))).toBe(isoMicro(new Date(time)));
    expect(() => microTime(new Date(Number.NaN))).toThrow(RangeError);
  });

  it("builds the response object only at RequestResponse, and takes a Status response's status at every level", () => {
    const status = { kind: "Status", apiVersion: "v1", metadata: {}, status: "Success", code: 200 };
    for (const level of ["Metadata", "Request", "RequestResponse"] as const) {
      const { audit, events } = requestAudit(level);
      let built = 0;
      audit.responseObject(() => {
        built++;
        return status;
      }, status);
      audit.processStage("ResponseComplete");
      expect(built).toBe(level === "RequestResponse" ? 1 : 0);
      expect(events[0]?.responseStatus).toEqual({ metadata: {}, status: "Success", code: 200 });
      expect(events[0]?.responseObject).toEqual(level === "RequestResponse" ? status : undefined);
    }
    const { audit, events } = requestAudit("Metadata");
    audit.responseObject(() => {
      throw new Error("built below RequestResponse");
    });
    audit.responseCode(200);
    audit.processStage("ResponseComplete");
    expect(events[0]?.responseStatus).toEqual({ metadata: {}, code: 200 });
    expect(events[0]?.stageTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}000Z$/);
    expect(events[0]?.requestReceivedTimestamp).toBe("2026-11-28T13:50:12.345000Z");
  });
});
