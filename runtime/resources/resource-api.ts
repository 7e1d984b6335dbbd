// The resource layer's one entry point: every verb on every stored kind, used by the HTTP handlers and by
// the in-server controllers alike, so both go through the same admission, validation and storage.
import type { AdmissionPlugin } from "../admission/admission.js";
import { notFound } from "../errors/status-error.js";
import { KindRegistry } from "../registry/kind-registry.js";
import type { Store } from "../storage/store.js";
import type { KubeObject } from "../strategies/strategy.js";
import type { CacheWatch } from "../watch-cache/cache-watch.js";
import type { CachedObject } from "../watch-cache/cached-object.js";
import { ApiContext, type Target } from "./api-context.js";
import { createObject, type WriteOptions } from "./create-object.js";
import { type DeleteOptions, type DeleteResult, deleteObject } from "./delete-object.js";
import { groupResource } from "./kinds.js";
import { type ListQuery, selectionFilter, type WatchQuery } from "./list-options.js";
import { type UpdateResult, updateObject } from "./update-object.js";
import { readViews, viewAt } from "./versioned.js";

export type { Target } from "./api-context.js";

export interface ResourceApiOptions {
  store: Store;
  admission?: readonly AdmissionPlugin[];
  now?: () => Date;
  /** How long watch history stays servable (the watch cache's window). */
  historyWindowMs?: number;
  /** What is served; default the built-in group/versions enabled by default. */
  kinds?: KindRegistry;
}

/** An object as read: the cache's entry (for shared serializations) and its view in the request's version. */
export interface ReadItem {
  cached: CachedObject<KubeObject>;
  object: KubeObject;
}

export interface ListResult {
  items: ReadItem[];
  resourceVersion: number;
  continue?: string;
  remainingItemCount?: number;
}

export class ResourceApi {
  readonly context: ApiContext;
  readonly kinds: KindRegistry;

  constructor(options: ResourceApiOptions) {
    this.kinds = options.kinds ?? new KindRegistry();
    this.context = new ApiContext(
      options.store,
      options.admission ?? [],
      options.now ?? (() => new Date()),
      options.historyWindowMs,
    );
  }

  /** Admission plugins are added after construction when they need this API themselves. */
  addAdmission(plugin: AdmissionPlugin): void {
    (this.context.admission as AdmissionPlugin[]).push(plugin);
  }

  async get(target: Target, options: { resourceVersion?: string } = {}): Promise<ReadItem> {
    const name = target.name as string;
    const cache = await this.context.storageOf(target.kind).cache();
    const { item } = await cache.get(this.context.keyOf(target, name), options);
    if (item === undefined) throw notFound(groupResource(target.kind), name);
    const [read = item] = await readViews([item], target.kind);
    return { cached: read, object: viewAt(read, target.kind) };
  }

  async list(target: Target, query: ListQuery = {}): Promise<ListResult> {
    const filter = selectionFilter(target.kind, query);
    const cache = await this.context.storageOf(target.kind).cache();
    const namespace = this.namespaceOf(target);
    const page = await cache.list({
      ...(namespace === undefined ? {} : { namespace }),
      ...(query.resourceVersion === undefined ? {} : { resourceVersion: query.resourceVersion }),
      ...(query.resourceVersionMatch === undefined ? {} : { resourceVersionMatch: query.resourceVersionMatch }),
      ...(query.limit === undefined ? {} : { limit: query.limit }),
      ...(query.continue === undefined ? {} : { continue: query.continue }),
      ...(filter === undefined ? {} : { filter }),
    });
    const read = await readViews(page.items, target.kind);
    return {
      items: read.map((cached) => ({ cached, object: viewAt(cached, target.kind) })),
      resourceVersion: page.resourceVersion,
      ...(page.continue === undefined ? {} : { continue: page.continue }),
      ...(page.remainingItemCount === undefined ? {} : { remainingItemCount: page.remainingItemCount }),
    };
  }

  /** Events carry cached objects in the storage version; show them with `viewAt(event.object, kind)`. */
  async watch(target: Target, query: Partial<WatchQuery> = {}, signal?: AbortSignal): Promise<CacheWatch<KubeObject>> {
    const filter = selectionFilter(target.kind, query);
    const cache = await this.context.storageOf(target.kind).cache();
    const namespace = this.namespaceOf(target);
    return cache.watch({
      ...(namespace === undefined ? {} : { namespace }),
      ...(query.resourceVersion === undefined ? {} : { resourceVersion: query.resourceVersion }),
      ...(filter === undefined ? {} : { filter }),
      bookmarks: query.allowWatchBookmarks === true,
      ...(query.sendInitialEvents === undefined ? {} : { sendInitialEvents: query.sendInitialEvents }),
      ...(signal === undefined ? {} : { signal }),
    });
  }

  create(target: Target, obj: KubeObject, options?: WriteOptions): Promise<KubeObject> {
    return createObject(this.context, target, obj, options);
  }

  update(target: Target, obj: KubeObject, options?: WriteOptions): Promise<UpdateResult> {
    return updateObject(this.context, target, obj, options);
  }

  delete(target: Target, options?: DeleteOptions): Promise<DeleteResult> {
    return deleteObject(this.context, target, options);
  }

  /** Deletes every object the selectors match (in the target's namespace); returns what it deleted or marked. */
  async deleteCollection(target: Target, query: ListQuery, options: DeleteOptions = {}): Promise<KubeObject[]> {
    const { items } = await this.list(target, query);
    const done: KubeObject[] = [];
    for (const item of items) {
      const meta = item.object.metadata as { name: string; namespace?: string };
      try {
        const result = await this.delete({ ...target, name: meta.name, namespace: meta.namespace }, options);
        done.push(result.object);
      } catch (error) {
        if ((error as { code?: number }).code !== 404) throw error;
      }
    }
    return done;
  }

  close(): void {
    this.context.close();
  }

  private namespaceOf(target: Target): string | undefined {
    return target.kind.resource.scope === "Namespaced" ? target.namespace : undefined;
  }
}
