// Dispatches a resource request to its verb's handler. Other subresources than status and scale go to their
// kind's strategy hooks (hook-handlers.ts); one without a hook answers 404 like unserved paths.
import { type GroupThing, methodNotSupported } from "../errors/status-error.js";
import type { Verb } from "../registry/kind-record.js";
import { groupResource } from "../registry/kinds.js";
import type { CustomKind } from "../registry/served-kind.js";
import type { RequestContext } from "../server/context.js";
import { deleteCollection, deleteResource } from "./delete-handlers.js";
import { noteDeprecation } from "./deprecation-warning.js";
import { answerCreate, serveWithHook } from "./hook-handlers.js";
import { patchResource } from "./patch-handler.js";
import { getResource, listResource } from "./read-handlers.js";
import { resourceTarget } from "./resource-target.js";
import { getScale, updateScale } from "./scale-handlers.js";
import { watchResource } from "./watch-handler.js";
import { createResource, updateResource } from "./write-handlers.js";

/** What a custom resource's definition says of every request: a deprecated version warns, a deleting one takes no creates. */
function checkDefinition(ctx: RequestContext, custom: CustomKind, resource: GroupThing, verb: Verb): void {
  if (custom.deprecationWarning !== undefined) ctx.warnings = [...(ctx.warnings ?? []), custom.deprecationWarning];
  if (custom.terminating === true && verb === "create") {
    throw methodNotSupported(resource, verb, `${verb} not allowed while custom resource definition is terminating`);
  }
}

export async function serveResource(ctx: RequestContext, verb: Verb): Promise<void> {
  const target = resourceTarget(ctx);
  if (target.kind.custom !== undefined) checkDefinition(ctx, target.kind.custom, groupResource(target.kind), verb);
  noteDeprecation(ctx, target.kind, target.subresource);
  if (target.subresource === "scale") {
    if (verb === "get") return getScale(ctx, target);
    if (verb === "update") return updateScale(ctx, target);
    if (verb === "patch") return patchResource(ctx, target);
  } else if (target.subresource === undefined || target.subresource === "status") {
    switch (verb) {
      case "get":
        return getResource(ctx, target);
      case "list":
        return listResource(ctx, target);
      case "watch":
        return watchResource(ctx, target);
      case "create":
        if (target.subresource === undefined && (await answerCreate(ctx, target))) return;
        return createResource(ctx, target);
      case "update":
        return updateResource(ctx, target);
      case "patch":
        return patchResource(ctx, target);
      case "delete":
        return deleteResource(ctx, target);
      case "deletecollection":
        return deleteCollection(ctx, target);
      default:
        break;
    }
  } else {
    return serveWithHook(ctx, target, verb);
  }
  throw methodNotSupported(groupResource(target.kind), verb);
}
