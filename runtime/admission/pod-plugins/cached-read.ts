// How the pod plugins read the objects they depend on (namespaces, PriorityClasses, RuntimeClasses): from
// the watch cache as kube's informer listers do, then from storage when the cache has not seen the object
// yet, as kube's plugins fall back to their live client.
import type { KubeObject } from "../../object/kube-object.js";
import type { ServedKind } from "../../registry/served-kind.js";
import type { ResourceApi } from "../../resources/resource-api.js";

async function read(api: ResourceApi, kind: ServedKind, name: string, consistent: boolean) {
  try {
    return (await api.get({ kind, name }, consistent ? {} : { resourceVersion: "0" })).object;
  } catch (error) {
    if ((error as { code?: number }).code === 404) return undefined;
    throw error;
  }
}

/** The cluster-scoped object, or undefined when it does not exist. */
export async function readObject(api: ResourceApi, kind: ServedKind, name: string): Promise<KubeObject | undefined> {
  return (await read(api, kind, name, false)) ?? (await read(api, kind, name, true));
}
