// What a request to a deprecated built-in kind gets, as kube-apiserver's installer wraps each endpoint: the
// kind's deprecation Warning, and the `k8s.io/deprecated` (and `k8s.io/removed-release`) audit annotations.
// A subresource serving another kind (scale's autoscaling/v1 Scale) answers for that kind, which is not.
import { deprecationOf } from "../registry/deprecation.js";
import type { ServedKind } from "../registry/served-kind.js";
import type { RequestContext } from "../server/context.js";
import { versionInfo } from "../server/endpoints/version.js";

const servedRelease = `${versionInfo.major}.${versionInfo.minor}`;

export function noteDeprecation(ctx: RequestContext, kind: ServedKind, subresource: string | undefined): void {
  if (kind.custom !== undefined) return;
  if (subresource !== undefined && kind.resource.subresources.find((s) => s.name === subresource)?.kind !== undefined) {
    return;
  }
  const deprecation = deprecationOf(kind, servedRelease);
  if (deprecation === undefined) return;
  ctx.warnings = [...(ctx.warnings ?? []), deprecation.warning];
  ctx.auditAnnotations ??= {};
  ctx.auditAnnotations["k8s.io/deprecated"] = "true";
  if (deprecation.removedRelease !== undefined)
    ctx.auditAnnotations["k8s.io/removed-release"] = deprecation.removedRelease;
}
