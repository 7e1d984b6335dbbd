// audit.k8s.io/v1 Events as kube-apiserver writes them at the Metadata level: who did what to which
// object, the response code, and the annotations admission added (for example the
// `validation.policy.admission.k8s.io/validation_failure` of an admission policy's Audit action).
import { randomUUID } from "node:crypto";
import { anonymousUser, type UserInfo } from "../access/user-info.js";
import type { AuditEvent, AuditUser } from "./audit-sink.js";
import type { RequestContext } from "./context.js";

function auditUser(user: UserInfo | undefined): AuditUser {
  if (user === undefined) return { username: anonymousUser, groups: [] };
  return {
    username: user.name,
    ...(user.uid === undefined || user.uid === "" ? {} : { uid: user.uid }),
    groups: user.groups,
    ...(user.extra === undefined || Object.keys(user.extra).length === 0 ? {} : { extra: user.extra }),
  };
}

/** RFC 3339 with microseconds, as audit timestamps are written. */
function microTime(date: Date): string {
  return date.toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");
}

export function auditEventOf(ctx: RequestContext, auditID: string, received: Date, code: number): AuditEvent {
  const info = ctx.info;
  const event: AuditEvent = {
    kind: "Event",
    apiVersion: "audit.k8s.io/v1",
    level: "Metadata",
    auditID,
    stage: "ResponseComplete",
    requestURI: ctx.req.url ?? "/",
    verb: info?.verb ?? (ctx.req.method ?? "get").toLowerCase(),
    user: auditUser(ctx.authenticatedUser ?? ctx.user),
    ...(ctx.authenticatedUser === undefined ? {} : { impersonatedUser: auditUser(ctx.user) }),
    sourceIPs: [ctx.req.socket?.remoteAddress ?? ""].filter((ip) => ip !== ""),
    responseStatus: { metadata: {}, code },
    requestReceivedTimestamp: microTime(received),
    stageTimestamp: microTime(new Date()),
  };
  const agent = ctx.req.headers["user-agent"];
  if (agent !== undefined) event.userAgent = agent;
  if (info?.isResourceRequest) {
    const name = info.name === "" ? (ctx.objectName ?? "") : info.name;
    event.objectRef = {
      resource: info.resource,
      ...(info.namespace === "" ? {} : { namespace: info.namespace }),
      ...(name === "" ? {} : { name }),
      ...(info.group === "" ? {} : { apiGroup: info.group }),
      apiVersion: info.version,
      ...(info.subresource === "" ? {} : { subresource: info.subresource }),
    };
  }
  if (ctx.auditAnnotations !== undefined) event.annotations = { ...ctx.auditAnnotations };
  return event;
}

export function newAuditID(): string {
  return randomUUID();
}
