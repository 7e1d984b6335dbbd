// What audit backends receive: audit.k8s.io/v1 Events, their fields in kube's order (audit-event.ts builds them).
import type { Event, ObjectReference } from "../../generated/audit.k8s.io/v1/types.js";
import type { UserInfo } from "../../generated/authentication.k8s.io/v1/types.js";

/** The generated audit.k8s.io/v1 Event, with what kapi always sets made required; objects are any JSON value. */
export type AuditEvent = Omit<Event, "requestObject" | "responseObject"> & {
  requestObject?: unknown;
  responseObject?: unknown;
  kind: "Event";
  apiVersion: "audit.k8s.io/v1";
  requestReceivedTimestamp: string;
  stageTimestamp: string;
};

export type AuditObjectRef = ObjectReference;

/** authentication/v1 UserInfo as audit events carry it (empty for a request authentication refused). */
export type AuditUser = UserInfo;

/** Where a server's audit events go (a test's array); a backend may be given instead (audit-backend.ts). */
export type AuditSink = (event: AuditEvent) => void;
