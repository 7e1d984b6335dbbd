// The apiVersion and kind a body names must be those of the endpoint; absent ones are filled in, as the
// decoder defaults them from the URL.
import { badRequest } from "../errors/status-error.js";
import type { KubeObject } from "../object/kube-object.js";
import { apiVersionOf } from "../registry/kinds.js";
import type { ServedKind } from "../registry/served-kind.js";
import { objectMeta } from "./object-access.js";

export function checkTypeMeta(obj: KubeObject, kind: { group: string; version: string; kind: string }): void {
  const expected = apiVersionOf(kind);
  if (obj.apiVersion === undefined || obj.apiVersion === "") obj.apiVersion = expected;
  else if (obj.apiVersion !== expected) {
    throw badRequest(
      `the API version in the data (${String(obj.apiVersion)}) does not match the expected API version (${expected})`,
    );
  }
  if (obj.kind === undefined || obj.kind === "") obj.kind = kind.kind;
  else if (obj.kind !== kind.kind) {
    throw badRequest(`the kind in the data (${String(obj.kind)}) does not match the expected kind (${kind.kind})`);
  }
}

/** A namespaced object takes the request's namespace; a cluster-scoped one has none. */
export function checkNamespace(obj: KubeObject, kind: ServedKind, namespace: string | undefined): void {
  const meta = objectMeta(obj);
  if (kind.resource.scope !== "Namespaced") {
    delete meta.namespace;
    return;
  }
  if (meta.namespace === undefined || meta.namespace === "") meta.namespace = namespace;
  else if (meta.namespace !== namespace) {
    throw badRequest("the namespace of the provided object does not match the namespace sent on the request");
  }
}
