// Requests that strategies answer instead of storage: creates of the review kinds (SelfSubjectReview,
// TokenReview, …) and of subresources served by a hook (serviceaccounts/token, pods/binding), connect
// subresources (pods/log, pods/exec, nodes/proxy, …), and the get/update/patch of subresources that are
// views of the whole object (pods/ephemeralcontainers, namespaces/finalize) through the generic paths.

import { pathNotFound } from "../errors/generic-errors.js";
import { methodNotSupported } from "../errors/status-error.js";
import { groupResource } from "../registry/kinds.js";
import type { Target } from "../resources/resource-api.js";
import { checkNamespace, checkTypeMeta } from "../resources/type-meta.js";
import type { RequestContext } from "../server/context.js";
import { type ConnectHook, type HookRequest, requestHooksOf } from "../strategies/hook-request.js";
import { admitHookCreate } from "./hook-admission.js";
import { headersFor, responseFormat, sendObject } from "./object-response.js";
import { patchResource } from "./patch-handler.js";
import { getResource } from "./read-handlers.js";
import { readRequestObject } from "./request-body.js";
import { updateResource } from "./write-handlers.js";
import { parseWriteQuery } from "./write-options.js";

function hookRequest(ctx: RequestContext, target: Target, dryRun: boolean): HookRequest {
  if (ctx.user === undefined) throw new Error("hook before authentication");
  return {
    user: ctx.user,
    ...(target.namespace === undefined ? {} : { namespace: target.namespace }),
    ...(target.name === undefined ? {} : { name: target.name }),
    dryRun,
    warn(text) {
      ctx.warnings ??= [];
      ctx.warnings.push(text);
    },
    access: ctx.server.access,
    resources: ctx.server.resources,
  };
}

/** True when the kind's strategy answers creates itself; the create is then served. */
export async function answerCreate(ctx: RequestContext, target: Target): Promise<boolean> {
  const answer = requestHooksOf(target.kind.strategy)?.answerCreate;
  if (answer === undefined) return false;
  const format = responseFormat(ctx, { list: false, watch: false, kind: target.kind });
  const query = parseWriteQuery(ctx.url.searchParams, "CreateOptions");
  const { object, warnings } = readRequestObject(ctx, target.kind, query.fieldValidation);
  checkTypeMeta(object, target.kind);
  checkNamespace(object, target.kind, target.namespace);
  const admitted = await admitHookCreate(ctx, target, object, query.dryRun);
  const answered = await answer(admitted, hookRequest(ctx, target, query.dryRun));
  sendObject(ctx, format, 201, target.kind, answered, { warnings });
  return true;
}

/** A subresource served by its kind's strategy hook (404 when kapi has no such hook). */
export async function serveWithHook(ctx: RequestContext, target: Target, verb: string): Promise<void> {
  const record = target.kind.resource.subresources.find((s) => s.name === target.subresource);
  const hooks = requestHooksOf(target.kind.strategy);
  if (record?.hook === undefined || hooks === undefined) throw pathNotFound();
  if (hooks.objectSubresources?.includes(record.hook) === true) {
    if (verb === "get") return getResource(ctx, target);
    if (verb === "update") return updateResource(ctx, target);
    if (verb === "patch") return patchResource(ctx, target);
    throw methodNotSupported(groupResource(target.kind), verb);
  }
  const connect = hooks.connectHooks?.[record.hook];
  if (connect !== undefined) return connectWithHook(ctx, target, connect);
  const hook = hooks.createHooks?.[record.hook];
  // The generator checks that a subresource's kind is in the table: its body is decoded as that kind.
  const kind = record.kind ?? target.kind;
  if (hook === undefined) throw pathNotFound();
  if (verb !== "create") throw methodNotSupported(groupResource(target.kind), verb);
  const format = responseFormat(ctx, { list: false, watch: false, kind: target.kind });
  const query = parseWriteQuery(ctx.url.searchParams, "CreateOptions");
  const { object, warnings } = readRequestObject(ctx, kind, query.fieldValidation);
  const subresourceKind = { group: kind.group, version: kind.version, kind: kind.kind };
  const admitted = await admitHookCreate(ctx, target, object, query.dryRun, subresourceKind);
  const answered = await hook(admitted, hookRequest(ctx, target, query.dryRun));
  sendObject(ctx, format, 201, target.kind, answered, { warnings });
}

/** A connect subresource: the hook answers with a status code and body, or throws kube's StatusError. */
async function connectWithHook(ctx: RequestContext, target: Target, hook: ConnectHook): Promise<void> {
  const path = ctx.route?.params.path;
  const answer = await hook({
    ...hookRequest(ctx, target, false),
    method: ctx.req.method ?? "GET",
    query: ctx.url.searchParams,
    headers: ctx.req.headers,
    ...(path === undefined ? {} : { path }),
    ...(ctx.body === undefined ? {} : { body: ctx.body }),
  });
  const headers = headersFor(ctx.warnings);
  if (answer.contentType !== undefined) headers["Content-Type"] = [answer.contentType];
  ctx.res.writeHead(answer.code, headers);
  ctx.res.end(answer.body);
}
