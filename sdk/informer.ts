// client-go's shared informer, reduced to one consumer: it lists a resource, keeps a local cache keyed by
// namespace/name up to date from a watch, and tells handlers about adds, updates and deletes. A dropped
// watch resumes from the last resourceVersion; an expired one relists and the difference from the cache is
// delivered as adds, updates and deletes. A resync period re-delivers every cached object as an update.
import { Backoff } from "./backoff.js";
import type {
  KubeObjectLike,
  NamespaceOption,
  ResourceDescriptor,
  SelectorOptions,
  Snapshot,
  SnapshotOptions,
  WatchEvent,
  WatchOptions,
} from "./resource-types.js";

/** What an informer lists and watches through: a ResourceClient of any scope. */
export interface InformerSource<T> {
  readonly descriptor: ResourceDescriptor;
  snapshot(options: SnapshotOptions & NamespaceOption<boolean>): Promise<Snapshot<T>>;
  watch(options: WatchOptions & NamespaceOption<boolean>): AsyncIterable<WatchEvent<T>>;
}

/** The retry delay of watches and informers: doubling from the first delay up to 30s. */
export function retryBackoff(firstDelayMs: number): Backoff {
  return new Backoff({ firstDelayMs, maxDelayMs: 30_000 });
}

export interface InformerHandlers<T> {
  onAdd?(obj: T): void;
  /** Also called at each resync, with the same object twice. */
  onUpdate?(oldObj: T, newObj: T): void;
  onDelete?(obj: T): void;
  /** A list or watch failed; the informer retries. */
  onError?(error: unknown): void;
}

export interface InformerOptions extends SelectorOptions {
  /** Namespace to inform on (namespaced resources; allNamespaces for every namespace). */
  namespace?: string;
  /** Re-deliver every cached object to onUpdate this often; 0 or unset: never. */
  resyncPeriodMs?: number;
  /** Page size of the lists; default 500. */
  pageSize?: number;
  /** Delay before retrying a failed list or watch; it doubles up to 30s. Default 1s. */
  retryDelayMs?: number;
}

/** The cache key: "namespace/name", or "name" for a cluster-scoped object (client-go's MetaNamespaceKeyFunc). */
export function objectKey(obj: KubeObjectLike): string {
  const { namespace, name } = obj.metadata ?? {};
  return namespace ? `${namespace}/${name ?? ""}` : (name ?? "");
}

export class Informer<T extends KubeObjectLike> {
  private readonly cache = new Map<string, T>();
  private readonly handlers: InformerHandlers<T>[] = [];
  private resourceVersion = "";
  private synced = false;
  private abort: AbortController | undefined;
  private resyncTimer: NodeJS.Timeout | undefined;

  constructor(
    readonly client: InformerSource<T>,
    readonly options: InformerOptions = {},
  ) {}

  /** Adds handlers; those added after start() get onAdd for the objects already cached. */
  addHandlers(handlers: InformerHandlers<T>): this {
    this.handlers.push(handlers);
    for (const obj of this.cache.values()) this.call(handlers, (h) => h.onAdd?.(obj));
    return this;
  }

  /**
   * Starts listing and watching; resolves once the first list is in the cache and delivered. A failing first
   * list rejects (and stops the informer); later failures go to onError and are retried. An informer starts
   * once.
   */
  async start(): Promise<void> {
    if (this.abort !== undefined) throw new Error("the informer is already started");
    const abort = new AbortController();
    this.abort = abort;
    try {
      this.replace(await this.snapshot(abort.signal));
    } catch (error) {
      this.stop();
      throw error;
    }
    this.synced = true;
    const period = this.options.resyncPeriodMs ?? 0;
    if (period > 0) {
      this.resyncTimer = setInterval(() => this.resync(), period);
      this.resyncTimer.unref();
    }
    void this.run(abort.signal);
  }

  /** Stops watching and resyncing; the cache keeps its last state. */
  stop(): void {
    this.abort?.abort();
    clearInterval(this.resyncTimer);
    this.resyncTimer = undefined;
  }

  get hasSynced(): boolean {
    return this.synced;
  }

  /** The resourceVersion the cache is at. */
  get lastSyncResourceVersion(): string {
    return this.resourceVersion;
  }

  /** A cached object by name (and namespace, for a namespaced resource). */
  get(name: string, namespace?: string): T | undefined {
    return this.cache.get(namespace ? `${namespace}/${name}` : name);
  }

  /** Every cached object. */
  list(): T[] {
    return [...this.cache.values()];
  }

  private scope(): { namespace?: string } & SelectorOptions {
    const { namespace, labelSelector, fieldSelector } = this.options;
    return {
      // Unset: every namespace (allNamespaces).
      ...(this.client.descriptor.namespaced ? { namespace: namespace ?? "" } : {}),
      ...(labelSelector === undefined ? {} : { labelSelector }),
      ...(fieldSelector === undefined ? {} : { fieldSelector }),
    };
  }

  private snapshot(signal: AbortSignal): Promise<Snapshot<T>> {
    const limit = this.options.pageSize ?? 500;
    return this.client.snapshot({ ...this.scope(), limit, signal } as SnapshotOptions & NamespaceOption<boolean>);
  }

  /** Watches from the cache's resourceVersion; after a failure the watch cannot recover from, relists. */
  private async run(signal: AbortSignal): Promise<void> {
    const firstDelayMs = this.options.retryDelayMs ?? 1000;
    const backoff = retryBackoff(firstDelayMs);
    while (!signal.aborted) {
      try {
        const events = this.client.watch({
          ...this.scope(),
          resourceVersion: this.resourceVersion,
          retryDelayMs: firstDelayMs,
          signal,
        } as WatchOptions & NamespaceOption<boolean>);
        for await (const event of events) {
          this.deliver(event);
          backoff.reset();
        }
      } catch (error) {
        if (signal.aborted) return;
        this.report(error);
        await backoff.wait(signal);
        try {
          if (!signal.aborted) this.replace(await this.snapshot(signal));
        } catch (listError) {
          if (!signal.aborted) this.report(listError);
        }
      }
    }
  }

  private deliver(event: WatchEvent<T>): void {
    if (event.type === "RELISTED") {
      this.replace(event);
      return;
    }
    const { object } = event;
    this.resourceVersion = object.metadata?.resourceVersion ?? this.resourceVersion;
    if (event.type === "BOOKMARK") return;
    const key = objectKey(object);
    const old = this.cache.get(key);
    if (event.type === "DELETED") {
      this.cache.delete(key);
      this.notify((h) => h.onDelete?.(old ?? object));
    } else {
      this.cache.set(key, object);
      if (old === undefined) this.notify((h) => h.onAdd?.(object));
      else this.notify((h) => h.onUpdate?.(old, object));
    }
  }

  /**
   * Takes a full list as the cache's new state: objects new to it are added, those whose resourceVersion
   * changed updated, those gone deleted. Unchanged objects are not re-delivered (resync does that).
   */
  private replace(list: Snapshot<T>): void {
    const fresh = new Map(list.items.map((obj) => [objectKey(obj), obj]));
    for (const [key, old] of this.cache) {
      if (fresh.has(key)) continue;
      this.cache.delete(key);
      this.notify((h) => h.onDelete?.(old));
    }
    for (const [key, obj] of fresh) {
      const old = this.cache.get(key);
      this.cache.set(key, obj);
      if (old === undefined) this.notify((h) => h.onAdd?.(obj));
      else if (old.metadata?.resourceVersion !== obj.metadata?.resourceVersion) {
        this.notify((h) => h.onUpdate?.(old, obj));
      }
    }
    this.resourceVersion = list.resourceVersion;
  }

  private resync(): void {
    for (const obj of this.cache.values()) this.notify((h) => h.onUpdate?.(obj, obj));
  }

  private notify(call: (handlers: InformerHandlers<T>) => void): void {
    for (const handlers of this.handlers) this.call(handlers, call);
  }

  /** A throwing handler goes to onError; it does not stop the informer or the other handlers. */
  private call(handlers: InformerHandlers<T>, call: (handlers: InformerHandlers<T>) => void): void {
    try {
      call(handlers);
    } catch (error) {
      this.report(error);
    }
  }

  private report(error: unknown): void {
    for (const handlers of this.handlers) {
      try {
        handlers.onError?.(error);
      } catch {
        // An onError that throws has nowhere further to report to.
      }
    }
  }
}
