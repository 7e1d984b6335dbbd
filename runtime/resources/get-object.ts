// A get: one object from its resource's watch cache, shown in the target's version. Patch, apply and the
// scale subresource read the object they change the same way.
import { notFound } from "../errors/status-error.js";
import type { KubeObject } from "../object/kube-object.js";
import { groupResource } from "../registry/kinds.js";
import type { CachedObject } from "../watch-cache/cached-object.js";
import type { ApiContext, Target } from "./api-context.js";
import { readViews, viewAt } from "./versioned.js";

/** An object as read: the cache's entry (for shared serializations) and its view in the request's version. */
export interface ReadItem {
  cached: CachedObject<KubeObject>;
  object: KubeObject;
}

export async function getObject(
  api: ApiContext,
  target: Target,
  options: { resourceVersion?: string } = {},
): Promise<ReadItem> {
  const name = target.name as string;
  const cache = await api.storageOf(target.kind).cache();
  const { item } = await cache.get(api.keyOf(target, name), options);
  if (item === undefined) throw notFound(groupResource(target.kind), name);
  const [read = item] = await readViews([item], target.kind);
  return { cached: read, object: viewAt(read, target.kind) };
}
