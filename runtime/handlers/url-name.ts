// kube's checkName for writes that carry a whole object (update, the scale subresource): the body must name
// itself, by the name on the URL, and may name no other namespace than the URL's. Patches have their own
// (runtime/patch/patched-object.ts).
import { badRequest } from "../errors/status-error.js";
import type { KubeObject } from "../object/kube-object.js";
import type { Target } from "../resources/resource-api.js";

export function checkUrlName(obj: KubeObject, target: Target): void {
  const name = target.name as string;
  const meta =
    typeof obj.metadata === "object" && obj.metadata !== null ? (obj.metadata as Record<string, unknown>) : {};
  const named = typeof meta.name === "string" ? meta.name : "";
  if (named === "") {
    throw badRequest(`the name of the object (${name} based on URL) was undeterminable: name must be provided`);
  }
  if (named !== name)
    throw badRequest(`the name of the object (${named}) does not match the name on the URL (${name})`);
  const namespace = typeof meta.namespace === "string" ? meta.namespace : "";
  if (target.namespace !== undefined && target.namespace !== "" && namespace !== "" && namespace !== target.namespace) {
    throw badRequest("the namespace of the provided object does not match the namespace sent on the request");
  }
}
