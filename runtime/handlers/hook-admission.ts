// Admission for the creates a strategy hook answers: kube runs the chain on them as on any create. A
// subresource's (pods/binding, pods/eviction, serviceaccounts/token) has the subresource's own kind, the request
// body as the object and the parent's name; a review kind's (TokenReview, bindings, …) the body's name.
import { type AdmissionAttributes, admitMutating, admitValidating } from "../admission/admission.js";
import type { KubeObject } from "../object/kube-object.js";
import type { GroupVersionKind } from "../registry/kind-record.js";
import { objectMeta } from "../resources/object-access.js";
import type { Target } from "../resources/resource-api.js";
import type { RequestContext } from "../server/context.js";
import { admissionRequestOf, writeQueryOptions } from "./admission-request.js";

function nameOf(object: KubeObject): string {
  const name = objectMeta(object).name;
  return typeof name === "string" ? name : "";
}

/**
 * Runs the mutating then the validating steps before the hook's work; answers the object as mutating plugins
 * left it. `subresourceKind` is the kind a subresource takes, when the target is one.
 */
export async function admitHookCreate(
  ctx: RequestContext,
  target: Target,
  object: KubeObject,
  dryRun: boolean,
  subresourceKind?: GroupVersionKind,
): Promise<KubeObject> {
  const plugins = ctx.server.resources.context.admission;
  const attributes: AdmissionAttributes = {
    operation: "CREATE",
    kind: target.kind,
    ...(subresourceKind === undefined ? {} : { subresourceKind }),
    namespace: target.namespace,
    name: target.name ?? nameOf(object),
    subresource: target.subresource,
    object,
    dryRun,
    request: admissionRequestOf(ctx, writeQueryOptions(ctx.url.searchParams)),
  };
  await admitMutating(plugins, attributes);
  await admitValidating(plugins, attributes);
  return attributes.object as KubeObject;
}
