// Audit, as kube-apiserver's audit filters: `auditInit` (outermost but for request info) gives every request
// an Audit-Id header (the client's own Audit-ID when it sent one) and audits a request authentication refused
// (one ResponseStarted event, as WithFailedAuthenticationAudit); `audit` (right after authentication) asks the
// policy for the request's level and, above None, emits RequestReceived, ResponseStarted (long-running requests,
// when the head goes out), ResponseComplete (also when the client went away) or Panic (an unexpected throw,
// which the guard answers with a 500) to the server's audit backend (docs/audit.md).
import { newAuditID, RequestAudit } from "../../audit/audit-event.js";
import { type AuditAttributes, evaluatePolicy } from "../../audit/audit-policy.js";
import { sourceIPs } from "../../audit/source-ips.js";
import { internal, StatusError } from "../../errors/status-error.js";
import type { RequestContext, Stage } from "../context.js";
import { isLongRunning } from "../long-running.js";

const auditIDs = new WeakMap<RequestContext, string>();

function attributesOf(ctx: RequestContext): AuditAttributes {
  const info = ctx.info;
  return {
    ...(ctx.user === undefined ? {} : { user: { name: ctx.user.name, groups: ctx.user.groups } }),
    verb: info?.verb ?? (ctx.req.method ?? "get").toLowerCase(),
    resourceRequest: info?.isResourceRequest ?? false,
    path: ctx.path,
    namespace: info?.namespace ?? "",
    apiGroup: info?.group ?? "",
    resource: info?.resource ?? "",
    subresource: info?.subresource ?? "",
    name: info?.name ?? "",
  };
}

function newRequestAudit(ctx: RequestContext): RequestAudit | undefined {
  const setup = ctx.server.audit;
  if (setup === undefined) return undefined;
  const attributes = attributesOf(ctx);
  const config = evaluatePolicy(setup.policy, attributes);
  setup.metrics?.observePolicyLevel(config.level);
  if (config.level === "None") return undefined;
  const info = ctx.info;
  const agent = ctx.req.headers["user-agent"];
  return new RequestAudit(
    config,
    setup.backend,
    {
      auditID: auditIDs.get(ctx) ?? newAuditID(),
      received: new Date(),
      requestURI: ctx.req.url ?? "/",
      verb: attributes.verb,
      user: ctx.user,
      sourceIPs: sourceIPs(ctx.req),
      userAgent: agent,
      objectRef: info?.isResourceRequest
        ? {
            resource: info.resource,
            namespace: info.namespace,
            name: info.name,
            apiGroup: info.group,
            apiVersion: info.version,
            subresource: info.subresource,
          }
        : undefined,
    },
    () => ctx.auditAnnotations,
    setup.metrics,
  );
}

export const auditInit: Stage = {
  name: "auditInit",
  async run(ctx, next) {
    const given = ctx.req.headers["audit-id"];
    const auditID = typeof given === "string" && given.trim() !== "" ? given.trim() : newAuditID();
    auditIDs.set(ctx, auditID);
    ctx.res.setHeader("Audit-Id", auditID);
    try {
      await next();
    } catch (error) {
      if (error instanceof StatusError && error.code === 401 && ctx.user === undefined) {
        const audit = newRequestAudit(ctx);
        if (audit !== undefined) {
          audit.responseFailure(error.status as unknown as Record<string, unknown>);
          audit.processStage("ResponseStarted");
        }
      }
      throw error;
    }
  },
};

/** Calls `onHead` with the status code once, when the response's head goes out. */
function watchHead(ctx: RequestContext, onHead: (code: number) => void): void {
  const res = ctx.res;
  let seen = false;
  const head = (code: number) => {
    if (seen) return;
    seen = true;
    onHead(code);
  };
  const { writeHead, flushHeaders, write, end } = res;
  res.writeHead = function (this: typeof res, code: number, ...rest: unknown[]) {
    head(code);
    return (writeHead as (...args: unknown[]) => typeof res).call(this, code, ...rest);
  } as typeof res.writeHead;
  res.flushHeaders = function (this: typeof res) {
    head(res.statusCode);
    flushHeaders.call(this);
  };
  res.write = function (this: typeof res, ...args: unknown[]) {
    if (!res.headersSent) head(res.statusCode);
    return (write as (...a: unknown[]) => boolean).apply(this, args);
  } as typeof res.write;
  res.end = function (this: typeof res, ...args: unknown[]) {
    if (!res.headersSent) head(res.statusCode);
    return (end as (...a: unknown[]) => typeof res).apply(this, args);
  } as typeof res.end;
}

export const audit: Stage = {
  name: "audit",
  async run(ctx, next) {
    const request = newRequestAudit(ctx);
    if (request === undefined) return next();
    ctx.audit = request;
    if (!request.processStage("RequestReceived")) {
      ctx.server.audit?.metrics?.requestRejected();
      throw internal("failed to store audit event");
    }
    const longRunning = ctx.info !== undefined && isLongRunning(ctx.info);
    const impersonation = () => {
      if (ctx.authenticatedUser !== undefined && ctx.user !== undefined) request.impersonated(ctx.user);
    };
    // Only a long-running request has an event when its head goes out; another's code is read at its end.
    if (longRunning) {
      watchHead(ctx, (code) => {
        impersonation();
        request.responseCode(code);
        request.processStage("ResponseStarted");
      });
    }
    let panicked = false;
    let completed = false;
    const complete = () => {
      if (completed || panicked) return;
      completed = true;
      impersonation();
      if (!longRunning && ctx.res.headersSent) request.responseCode(ctx.res.statusCode);
      if (!request.hasResponseStatus) {
        request.responseStatus({ metadata: {}, status: "Success", message: "Connection closed early", code: 200 });
        if (longRunning) request.processStage("ResponseStarted");
      }
      request.processStage("ResponseComplete");
    };
    ctx.res.once("finish", complete);
    ctx.res.once("close", complete);
    try {
      await next();
    } catch (error) {
      impersonation();
      if (error instanceof StatusError) {
        request.responseFailure(error.status as unknown as Record<string, unknown>);
      } else if (!ctx.res.destroyed) {
        panicked = true;
        request.responseStatus({
          metadata: {},
          status: "Failure",
          message: `APIServer panic'd: ${error instanceof Error ? error.message : String(error)}`,
          reason: "InternalError",
          code: 500,
        });
        request.processStage("Panic");
      }
      throw error;
    }
  },
};
