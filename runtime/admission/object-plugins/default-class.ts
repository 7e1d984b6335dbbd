// The default of a class kind (StorageClass, IngressClass) as kube's admission picks it: among the classes
// an annotation marks default, the newest by creation time, and of those created in the same second the
// first by name.
import type { KubeObject } from "../../object/kube-object.js";
import type { ServedKind } from "../../registry/served-kind.js";
import type { ResourceApi } from "../../resources/resource-api.js";

interface ClassMeta {
  name?: string;
  creationTimestamp?: string;
  annotations?: Record<string, string>;
}

const metaOf = (obj: KubeObject) => (obj.metadata ?? {}) as ClassMeta;

/** The name of the default class, or undefined when no class is marked default by one of `annotations`. */
export async function defaultClassName(
  api: ResourceApi,
  kind: ServedKind,
  annotations: readonly string[],
): Promise<string | undefined> {
  // kube reads its informer's cache; the watch cache is the same kind of view.
  const { items } = await api.list({ kind }, { resourceVersion: "0" });
  const defaults = items
    .map((item) => metaOf(item.object))
    .filter((meta) => annotations.some((key) => meta.annotations?.[key] === "true"));
  const created = (meta: ClassMeta) => Date.parse(meta.creationTimestamp ?? "") || 0;
  defaults.sort((a, b) => created(b) - created(a) || ((a.name ?? "") < (b.name ?? "") ? -1 : 1));
  return defaults[0]?.name;
}
