// What audit backends receive: audit.k8s.io/v1 Events, their fields in kube's order (audit-event.ts builds them).
import type { Level, Stage } from "./audit-policy.js";

export interface AuditEvent {
  kind: "Event";
  apiVersion: "audit.k8s.io/v1";
  level: Level;
  auditID: string;
  stage: Stage;
  requestURI: string;
  verb: string;
  user: AuditUser;
  impersonatedUser?: AuditUser;
  sourceIPs?: string[];
  userAgent?: string;
  objectRef?: AuditObjectRef;
  responseStatus?: Record<string, unknown> & { metadata: Record<string, never>; code: number };
  requestObject?: unknown;
  responseObject?: unknown;
  requestReceivedTimestamp: string;
  stageTimestamp: string;
  annotations?: Record<string, string>;
}

export interface AuditObjectRef {
  resource?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiGroup?: string;
  apiVersion?: string;
  resourceVersion?: string;
  subresource?: string;
}

/** authentication/v1 UserInfo as audit events carry it (empty for a request authentication refused). */
export interface AuditUser {
  username?: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

/** Where a server's audit events go (a test's array); a backend may be given instead (audit-backend.ts). */
export type AuditSink = (event: AuditEvent) => void;
