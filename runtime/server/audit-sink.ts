// What an audit sink receives: audit.k8s.io/v1 Events at the Metadata level (audit-event.ts builds them).
export interface AuditEvent {
  kind: "Event";
  apiVersion: "audit.k8s.io/v1";
  level: "Metadata";
  auditID: string;
  stage: "ResponseComplete";
  requestURI: string;
  verb: string;
  user: AuditUser;
  impersonatedUser?: AuditUser;
  sourceIPs: string[];
  userAgent?: string;
  objectRef?: {
    resource: string;
    namespace?: string;
    name?: string;
    apiGroup?: string;
    apiVersion: string;
    subresource?: string;
  };
  responseStatus: { metadata: Record<string, never>; code: number };
  requestReceivedTimestamp: string;
  stageTimestamp: string;
  annotations?: Record<string, string>;
}

/** authentication/v1 UserInfo as audit events carry it. */
export interface AuditUser {
  username: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

/** Where a server's audit events go (a log file, a test's array). */
export type AuditSink = (event: AuditEvent) => void;
