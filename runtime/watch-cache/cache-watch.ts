// One watch on a WatchCache: events from history or the initial state first (the backlog), then live
// events the cache offers as they happen. Live events wait in a buffer bounded in events and in bytes; a
// consumer that lets it fill is terminated, as kube-apiserver terminates a watcher that does not keep up,
// and re-watches from the last revision it saw.
import type { CachedObject, HistoryEvent } from "./cached-object.js";

export type CacheEvent<T> =
  | {
      readonly type: "ADDED" | "MODIFIED" | "DELETED";
      readonly object: CachedObject<T>;
      /** The resourceVersion to show: for DELETED the deletion's revision, not the object's last write. */
      readonly resourceVersion: number;
    }
  | {
      readonly type: "BOOKMARK";
      readonly resourceVersion: number;
      /** Set on the bookmark that ends `sendInitialEvents` (annotation `k8s.io/initial-events-end: "true"`). */
      readonly initialEventsEnd: boolean;
    };

export interface CacheWatchSettings<T> {
  readonly namespace: string | undefined;
  readonly filter: ((object: T) => boolean) | undefined;
  readonly bookmarks: boolean;
  /** Live events at or below this revision are already covered by the backlog. */
  readonly after: number;
  readonly bufferSize: number;
  /** Stored bytes of the objects undelivered live events may hold before the watch is terminated. */
  readonly bufferBytes: number;
  readonly currentRevision: () => number;
  readonly onStop: (watch: CacheWatch<T>) => void;
}

export class CacheWatch<T> implements AsyncIterableIterator<CacheEvent<T>> {
  private backlog: CacheEvent<T>[];
  private backlogAt = 0;
  private queue: CacheEvent<T>[] = [];
  private queueAt = 0;
  /** Stored bytes of the objects in `queue` from `queueAt` on. */
  private queuedBytes = 0;
  private done = false;
  /** True when the watch ended because its consumer fell a whole buffer behind. */
  terminated = false;
  private readonly stopped = new AbortController();
  private wake: (() => void) | undefined;
  private lastRevision: number;

  constructor(
    private readonly settings: CacheWatchSettings<T>,
    backlog: CacheEvent<T>[],
  ) {
    this.backlog = backlog;
    this.lastRevision = settings.after;
  }

  /** Aborted when the watch ends, however it ends: a consumer blocked elsewhere learns of it here. */
  get ended(): AbortSignal {
    return this.stopped.signal;
  }

  /** True once the backlog (history or the initial state) has been taken. */
  get backlogTaken(): boolean {
    return this.backlogAt >= this.backlog.length;
  }

  get namespace(): string | undefined {
    return this.settings.namespace;
  }

  /** Called by the cache for each change in this watch's namespace (or every change for an all-namespace watch). */
  offer(change: HistoryEvent<T>): void {
    if (this.done || change.revision <= this.settings.after) return;
    const event = this.convert(change);
    if (event === undefined) return;
    if (this.queue.length - this.queueAt >= this.settings.bufferSize || this.queuedBytes >= this.settings.bufferBytes) {
      this.terminated = true;
      this.stop();
      return;
    }
    this.queue.push(event);
    this.queuedBytes += event.object.kv.value.length;
    this.wakeUp();
  }

  /** Sends a BOOKMARK at the cache's revision when bookmarks were asked for and nothing is pending. */
  requestBookmark(): void {
    if (this.done || !this.settings.bookmarks || this.pending() > 0) return;
    const revision = this.settings.currentRevision();
    if (revision <= this.lastRevision) return;
    this.lastRevision = revision;
    this.queue.push({ type: "BOOKMARK", resourceVersion: revision, initialEventsEnd: false });
    this.wakeUp();
  }

  async next(): Promise<IteratorResult<CacheEvent<T>>> {
    for (;;) {
      if (this.done) return { done: true, value: undefined };
      const event = this.take();
      if (event !== undefined) return { done: false, value: event };
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
  }

  async return(): Promise<IteratorResult<CacheEvent<T>>> {
    this.stop();
    return { done: true, value: undefined };
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<CacheEvent<T>> {
    return this;
  }

  stop(): void {
    if (this.done) return;
    this.done = true;
    this.backlog = [];
    this.queue = [];
    this.queuedBytes = 0;
    this.settings.onStop(this);
    this.stopped.abort();
    this.wakeUp();
  }

  private pending(): number {
    return this.backlog.length - this.backlogAt + this.queue.length - this.queueAt;
  }

  private take(): CacheEvent<T> | undefined {
    if (this.backlogAt < this.backlog.length) {
      const event = this.backlog[this.backlogAt++];
      if (this.backlogAt === this.backlog.length) {
        this.backlog = [];
        this.backlogAt = 0;
      }
      return event;
    }
    if (this.queueAt < this.queue.length) {
      const event = this.queue[this.queueAt++] as CacheEvent<T>;
      if (event.resourceVersion > this.lastRevision) this.lastRevision = event.resourceVersion;
      if (event.type !== "BOOKMARK") this.queuedBytes -= event.object.kv.value.length;
      if (this.queueAt === this.queue.length) {
        this.queue = [];
        this.queueAt = 0;
      }
      return event;
    }
    return undefined;
  }

  /** As kube's cacheWatcher: an object that starts matching is ADDED, one that stops matching DELETED. */
  convert(change: HistoryEvent<T>): Exclude<CacheEvent<T>, { type: "BOOKMARK" }> | undefined {
    const filter = this.settings.filter;
    const now = change.object !== undefined && (filter === undefined || filter(change.object.object));
    const before = change.prev !== undefined && (filter === undefined || filter(change.prev.object));
    if (now && change.object !== undefined) {
      return { type: before ? "MODIFIED" : "ADDED", object: change.object, resourceVersion: change.revision };
    }
    if (before && change.prev !== undefined) {
      return { type: "DELETED", object: change.prev, resourceVersion: change.revision };
    }
    return undefined;
  }

  private wakeUp(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
