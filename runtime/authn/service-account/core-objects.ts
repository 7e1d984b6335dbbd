// The objects service account tokens name (the account, and the pod, secret or node a token is bound to),
// read through the ResourceApi. The generated registry is imported on first use, not at load: it imports the
// service account strategy, which imports this module, so a static import would make a cycle that fails when
// the strategy is loaded first.
import { StatusError } from "../../errors/status-error.js";
import type { KubeObject } from "../../object/kube-object.js";
import { kindReference } from "../../registry/kinds.js";
import { byGroupVersionResource } from "../../registry/lookup.js";
import type { ServedKind } from "../../registry/served-kind.js";
import type { ResourceApi } from "../../resources/resource-api.js";

export type CoreResource = "serviceaccounts" | "pods" | "secrets" | "nodes";

export interface CoreMeta {
  name?: string;
  uid?: string;
  deletionTimestamp?: string;
  labels?: Record<string, string>;
}

const found = new Map<CoreResource, ServedKind>();

export async function coreKind(resource: CoreResource): Promise<ServedKind> {
  let kind = found.get(resource);
  if (kind === undefined) {
    const { kinds } = await import("../../../generated/registry.js");
    const record = byGroupVersionResource(kinds, "", "v1", resource);
    if (record === undefined) throw new Error(`the registry has no v1 ${resource}`);
    kind = kindReference(record);
    found.set(resource, kind);
  }
  return kind;
}

/** The object; a 404 propagates as the StatusError `<resource> "<name>" not found`. */
export async function getObject(
  resources: ResourceApi,
  resource: CoreResource,
  name: string,
  namespace?: string,
): Promise<KubeObject> {
  const kind = await coreKind(resource);
  return (await resources.get({ kind, name, ...(namespace === undefined ? {} : { namespace }) })).object;
}

/** The object, or undefined when it does not exist. */
export async function findObject(
  resources: ResourceApi,
  resource: CoreResource,
  name: string,
  namespace?: string,
): Promise<KubeObject | undefined> {
  try {
    return await getObject(resources, resource, name, namespace);
  } catch (error) {
    if (error instanceof StatusError && error.code === 404) return undefined;
    throw error;
  }
}

export function metaOf(obj: KubeObject): CoreMeta {
  return (obj.metadata ?? {}) as CoreMeta;
}
