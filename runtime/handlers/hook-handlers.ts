// Creates that strategies answer instead of storage: the review kinds (SelfSubjectReview, TokenReview,
// SubjectAccessReview, …) and subresources served by a hook (serviceaccounts/token).

import { pathNotFound } from "../errors/generic-errors.js";
import { methodNotSupported } from "../errors/status-error.js";
import { groupResource } from "../registry/kinds.js";
import type { Target } from "../resources/resource-api.js";
import { checkNamespace, checkTypeMeta } from "../resources/type-meta.js";
import type { RequestContext } from "../server/context.js";
import { type HookRequest, requestHooksOf } from "../strategies/hook-request.js";
import { responseFormat, sendObject } from "./object-response.js";
import { readRequestObject } from "./request-body.js";
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
  const answered = await answer(object, hookRequest(ctx, target, query.dryRun));
  sendObject(ctx, format, 201, target.kind, answered, { warnings });
  return true;
}

/** A create of a subresource served by its kind's strategy hook (404 when kapi has no such hook). */
export async function createWithHook(ctx: RequestContext, target: Target, verb: string): Promise<void> {
  const record = target.kind.resource.subresources.find((s) => s.name === target.subresource);
  const hook =
    record?.hook === undefined ? undefined : requestHooksOf(target.kind.strategy)?.createHooks?.[record.hook];
  // The generator checks that a subresource's kind is in the table: its body is decoded as that kind.
  const kind = record?.kind ?? target.kind;
  if (hook === undefined) throw pathNotFound();
  if (verb !== "create") throw methodNotSupported(groupResource(target.kind), verb);
  const format = responseFormat(ctx, { list: false, watch: false, kind: target.kind });
  const query = parseWriteQuery(ctx.url.searchParams, "CreateOptions");
  const { object, warnings } = readRequestObject(ctx, kind, query.fieldValidation);
  const answered = await hook(object, hookRequest(ctx, target, query.dryRun));
  sendObject(ctx, format, 201, target.kind, answered, { warnings });
}
