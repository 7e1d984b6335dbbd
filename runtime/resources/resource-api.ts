// The resource layer's one entry point: every verb on every stored kind, used by the HTTP handlers and by
// the in-server controllers alike, so both go through the same admission, validation and storage.
import type { AdmissionPlugin } from "../admission/admission.js";
import { pathNotFound } from "../errors/generic-errors.js";
import type { MetricRegistry } from "../metrics/metric-registry.js";
import type { KubeObject } from "../object/kube-object.js";
import type { KindRegistry } from "../registry/kind-registry.js";
import type { Store } from "../storage/store.js";
import type { CacheWatch } from "../watch-cache/cache-watch.js";
import { ApiContext, type Target } from "./api-context.js";
import { applyObject } from "./apply-object.js";
import { createObject, type WriteOptions } from "./create-object.js";
import { type DeleteOptions, type DeleteResult, deleteObject } from "./delete-object.js";
import { getObject, type ReadItem } from "./get-object.js";
import { type ListQuery, selectionFilter, type WatchQuery } from "./list-options.js";
import { patchObject } from "./patch-object.js";
import {
  type ApplyOptions,
  type ApplyResult,
  documentBytes,
  type PatchDocument,
  type PatchOptions,
  type PatchResult,
} from "./patch-options.js";
import type { PatchType } from "./patch-types.js";
import { getScale, updateScale } from "./scale-object.js";
import { type UpdateResult, updateObject } from "./update-object.js";
import { readViews, viewAt } from "./versioned.js";

export type { Target } from "./api-context.js";
export type { ReadItem } from "./get-object.js";
export type { ApplyOptions, ApplyResult, PatchDocument, PatchOptions, PatchResult } from "./patch-options.js";
export type { PatchType } from "./patch-types.js";

export interface ResourceApiOptions {
  store: Store;
  admission?: readonly AdmissionPlugin[];
  now?: () => Date;
  /** How long watch history stays servable (the watch cache's window). */
  historyWindowMs?: number;
  /** What is served. */
  kinds: KindRegistry;
  /** The server's registry, for the watch caches' families. */
  metrics?: MetricRegistry;
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
    this.kinds = options.kinds;
    this.context = new ApiContext(
      options.store,
      options.admission ?? [],
      options.now ?? (() => new Date()),
      options.historyWindowMs,
      options.metrics,
    );
  }

  /** Admission plugins are added after construction when they need this API themselves. */
  addAdmission(plugin: AdmissionPlugin): void {
    (this.context.admission as AdmissionPlugin[]).push(plugin);
  }

  /** The object, also for the status subresource (the Scale: getScale). */
  get(target: Target, options: { resourceVersion?: string } = {}): Promise<ReadItem> {
    target = this.#serve(target);
    return getObject(this.context, target, options);
  }

  async list(target: Target, query: ListQuery = {}): Promise<ListResult> {
    target = this.#serve(target);
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
    target = this.#serve(target);
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
    target = this.#serve(target);
    return createObject(this.context, target, obj, options);
  }

  /** An update of the object or its status (the Scale: updateScale). */
  update(target: Target, obj: KubeObject, options?: WriteOptions): Promise<UpdateResult> {
    target = this.#serve(target);
    return updateObject(this.context, target, obj, options);
  }

  /**
   * A JSON Patch, merge patch or strategic merge patch of the object, its status or its Scale (the target's
   * subresource), retried on the newer object when another write lands in between.
   */
  patch(target: Target, type: PatchType, patch: PatchDocument, options?: PatchOptions): Promise<PatchResult> {
    target = this.#serve(target);
    return patchObject(this.context, target, type, documentBytes(patch), options);
  }

  /**
   * Server-side apply of `config` (YAML or JSON) to the object, its status or its Scale: 409 Conflict for
   * fields other managers own unless `force`; the object is created when absent (`created`).
   */
  apply(target: Target, config: PatchDocument, options: ApplyOptions): Promise<ApplyResult> {
    target = this.#serve(target);
    return applyObject(this.context, target, documentBytes(config), options);
  }

  /** The autoscaling/v1 Scale of the target's object; 404 for kinds without a scale subresource. */
  getScale(target: Target): Promise<KubeObject> {
    target = this.#serve(target);
    return getScale(this.context, target);
  }

  /** Writes the replicas of `scale` into the target's object, recorded with subresource scale. */
  updateScale(target: Target, scale: KubeObject, options?: WriteOptions): Promise<KubeObject> {
    target = this.#serve(target);
    return updateScale(this.context, target, scale, options);
  }

  delete(target: Target, options?: DeleteOptions): Promise<DeleteResult> {
    target = this.#serve(target);
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

  /**
   * The target with its kind as this server serves it: callers name built-in kinds by their table records
   * (controllers, authorizers), and the registry gives the kind its strategy. A kind of a group/version the
   * runtime config switches off is not found, as in-server clients of kube-apiserver find it (their lists
   * fail with 404 and retry). Custom kinds come from the registry already and stay as they are, also while
   * their definition goes away.
   */
  #serve(target: Target): Target {
    const kind = target.kind;
    if (kind.custom !== undefined) return target;
    const served = this.kinds.servedKind(kind.group, kind.version, kind.resource.plural);
    if (served === undefined) throw pathNotFound();
    return served === kind ? target : { ...target, kind: served };
  }

  private namespaceOf(target: Target): string | undefined {
    return target.kind.resource.scope === "Namespaced" ? target.namespace : undefined;
  }
}
