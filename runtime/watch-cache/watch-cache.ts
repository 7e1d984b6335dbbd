// A watch cache for one resource, as kube-apiserver's cacher: it lists the resource's key prefix once,
// follows the store's watch, and serves gets, lists and watches from memory with kube's resourceVersion
// rules. Changes stay in a history window (5 minutes by default); a watch, an Exact list or a continue
// token older than the window answers 410. The cache never names a kind: it knows a key prefix and a
// decode function.
import { setImmediate as nextMacrotask } from "node:timers/promises";
import { compareKeys, prefixEnd } from "../storage/key-order.js";
import { StoreClosedError } from "../storage/storage-errors.js";
import type { KeyValue, Store, WatchEvent } from "../storage/store.js";
import {
  ContinueExpiredError,
  continueWithResourceVersion,
  listTooOld,
  TooLargeResourceVersionError,
  watchTooOld,
} from "./cache-errors.js";
import type { CacheMetrics } from "./cache-metrics.js";
import { type CacheEvent, CacheWatch } from "./cache-watch.js";
import { type CachedObject, deepFreeze, type HistoryEvent } from "./cached-object.js";
import { decodeContinue, encodeContinue } from "./continue-token.js";
import { countWatchers } from "./registered-watchers.js";
import { parseResourceVersion } from "./resource-version.js";

export interface WatchCacheOptions<T> {
  store: Store;
  /** Key prefix of the resource, ending in "/": `/registry/pods/`. Namespaced keys are `<prefix><ns>/<name>`. */
  prefix: string;
  /** Bytes of one stored version to the object served; called once per version. */
  decode: (kv: KeyValue) => T;
  /** How long changes stay servable to watches, Exact lists and continue tokens. Default 5 minutes. */
  historyWindowMs?: number;
  /** Bounded wait for a revision the cache has not reached (kube's 3 s), then 504. */
  freshnessTimeoutMs?: number;
  /** Live events a watch may hold undelivered before it is terminated. Default 1000. */
  watchBufferSize?: number;
  /** Stored bytes of the objects a watch's undelivered live events may hold before it is terminated. Default 16 MiB. */
  watchBufferBytes?: number;
  /** Period of BOOKMARK events to watches that allow them. Default 1 minute, as kube. */
  bookmarkIntervalMs?: number;
  /** Clock for the history window, replaceable in tests. */
  now?: () => number;
  /** Where the cache reports kube's apiserver_watch_cache_* figures. */
  metrics?: CacheMetrics;
}

export interface ReadOptions {
  /** As the client sent it: unset (Most Recent), "0" (Any) or a revision (Not Older Than). */
  resourceVersion?: string;
}

export interface ListOptions<T> extends ReadOptions {
  namespace?: string;
  resourceVersionMatch?: "NotOlderThan" | "Exact";
  limit?: number;
  continue?: string;
  /** Label and field selectors as a predicate; with one, remainingItemCount is left out as kube does. */
  filter?: (object: T) => boolean;
}

export interface ListPage<T> {
  readonly items: readonly CachedObject<T>[];
  /** The list's resourceVersion: the same in every chunk of one paged list. */
  readonly resourceVersion: number;
  readonly continue?: string;
  readonly remainingItemCount?: number;
}

export interface GetResult<T> {
  readonly item: CachedObject<T> | undefined;
  readonly resourceVersion: number;
}

export interface WatchOptions<T> extends ReadOptions {
  namespace?: string;
  filter?: (object: T) => boolean;
  /** allowWatchBookmarks. */
  bookmarks?: boolean;
  sendInitialEvents?: boolean;
  signal?: AbortSignal;
}

interface Slot<T> {
  readonly key: string;
  item: CachedObject<T>;
}

const snapshotsKept = 8;
const progressPollMs = 100;

export class WatchCache<T> {
  private readonly store: Store;
  private readonly prefix: string;
  private readonly decode: (kv: KeyValue) => T;
  private readonly windowMs: number;
  private readonly freshnessMs: number;
  private readonly bufferSize: number;
  private readonly bufferBytes: number;
  private readonly now: () => number;
  private readonly metrics: CacheMetrics | undefined;
  /** Current state in key order; a namespace is one contiguous range of it. */
  private slots: Slot<T>[] = [];
  private readonly byKey = new Map<string, Slot<T>>();
  private history: HistoryEvent<T>[] = [];
  private historyAt = 0;
  /** The oldest revision whose state and following changes are still known. */
  private oldest = 0;
  private revision = 0;
  private readonly snapshots = new Map<number, Slot<T>[]>();
  private readonly allNamespaceWatches = new Set<CacheWatch<T>>();
  private readonly namespaceWatches = new Map<string, Set<CacheWatch<T>>>();
  private readonly waiters = new Set<() => void>();
  /** True while the follower waits on the store's watch with nothing unapplied. */
  private idle = false;
  private closed = false;
  private readonly stopFollowing = new AbortController();
  private readonly bookmarkTimer: NodeJS.Timeout;

  private constructor(options: WatchCacheOptions<T>) {
    if (!options.prefix.endsWith("/")) throw new RangeError(`prefix must end with "/": ${options.prefix}`);
    this.store = options.store;
    this.prefix = options.prefix;
    this.decode = options.decode;
    this.windowMs = options.historyWindowMs ?? 5 * 60_000;
    this.freshnessMs = options.freshnessTimeoutMs ?? 3000;
    this.bufferSize = options.watchBufferSize ?? 1000;
    this.bufferBytes = options.watchBufferBytes ?? 16 * 1024 * 1024;
    this.now = options.now ?? Date.now;
    this.metrics = options.metrics;
    this.bookmarkTimer = setInterval(() => this.sendBookmarks(), options.bookmarkIntervalMs ?? 60_000);
    this.bookmarkTimer.unref();
  }

  /** Lists the prefix, starts following the store and resolves once the cache can serve. */
  static async open<T>(options: WatchCacheOptions<T>): Promise<WatchCache<T>> {
    const cache = new WatchCache(options);
    try {
      const changes = await cache.relist();
      void cache.follow(changes);
    } catch (error) {
      cache.close();
      throw error;
    }
    return cache;
  }

  /** The revision the cache has caught up with. */
  get resourceVersion(): number {
    return this.revision;
  }

  /** Objects held now and the bytes they are stored in (API Priority and Fairness sizes lists by them). */
  stats(): { objectCount: number; storedBytes: number } {
    let storedBytes = 0;
    for (const slot of this.slots) storedBytes += slot.item.kv.value.length;
    return { objectCount: this.slots.length, storedBytes };
  }

  async get(key: string, options: ReadOptions = {}): Promise<GetResult<T>> {
    const rv = parseResourceVersion(options.resourceVersion);
    if (rv === undefined) await this.waitForStore();
    else if (rv > 0) await this.waitFor(rv);
    return { item: this.byKey.get(key)?.item, resourceVersion: this.revision };
  }

  async list(options: ListOptions<T> = {}): Promise<ListPage<T>> {
    const rv = parseResourceVersion(options.resourceVersion);
    const limit = options.limit ?? 0;
    let startKey: string | undefined;
    let exact: number | undefined;
    if (options.continue !== undefined && options.continue !== "") {
      if (rv !== undefined && rv !== 0) throw continueWithResourceVersion();
      const position = decodeContinue(options.continue, this.prefix);
      startKey = position.startKey;
      if (position.revision === -1) await this.waitForStore();
      else {
        exact = position.revision;
        if (this.tooOld(exact)) throw new ContinueExpiredError(encodeContinue(startKey, this.prefix, -1));
      }
    } else if (rv === undefined) await this.waitForStore();
    else if (rv > 0 && (options.resourceVersionMatch === "Exact" || (!options.resourceVersionMatch && limit > 0))) {
      exact = rv;
      if (this.tooOld(exact)) throw listTooOld();
    } else if (rv > 0) await this.waitFor(rv);
    if (exact !== undefined) {
      await this.waitFor(exact);
      if (this.tooOld(exact)) {
        if (startKey === undefined) throw listTooOld();
        throw new ContinueExpiredError(encodeContinue(startKey, this.prefix, -1));
      }
    }
    // From here on everything is synchronous: no write can land between the reads below.
    const revision = exact ?? this.revision;
    return this.page(this.stateAt(revision), revision, options, startKey, limit);
  }

  /**
   * Starts a watch. Rejects with 410 Expired when the start revision left the history window; the HTTP
   * layer sends that as an ERROR event. Unset and "0" start with synthetic ADDED events for the current
   * state (unset after a consistent read), as kube does; `sendInitialEvents` adds the closing bookmark, and
   * `sendInitialEvents: false` sends none: changes after the revision given, or after now for unset and "0".
   */
  async watch(options: WatchOptions<T> = {}): Promise<CacheWatch<T>> {
    const rv = parseResourceVersion(options.resourceVersion);
    const fromNow = rv === undefined || rv === 0;
    const initial = options.sendInitialEvents ?? fromNow;
    if (rv === undefined) await this.waitForStore();
    else if (rv > 0 && options.sendInitialEvents === true) await this.waitFor(rv);
    if (!initial && !fromNow && this.tooOld(rv)) throw watchTooOld(rv, this.oldest);
    const settings = {
      namespace: options.namespace,
      filter: options.filter,
      bookmarks: options.bookmarks === true,
      after: initial || fromNow ? this.revision : Math.max(rv, 0),
      bufferSize: this.bufferSize,
      bufferBytes: this.bufferBytes,
      currentRevision: () => this.revision,
      onStop: (watch: CacheWatch<T>) => this.unregister(watch),
    };
    const backlog: CacheEvent<T>[] = [];
    const watch = new CacheWatch(settings, backlog);
    if (initial) {
      const slots = this.slots;
      const [from, to] = this.range(slots, options.namespace, undefined);
      for (let i = from; i < to; i++) {
        const item = (slots[i] as Slot<T>).item;
        if (options.filter === undefined || options.filter(item.object)) {
          backlog.push({ type: "ADDED", object: item, resourceVersion: item.kv.modRevision });
        }
      }
      if (options.sendInitialEvents === true && settings.bookmarks) {
        backlog.push({ type: "BOOKMARK", resourceVersion: this.revision, initialEventsEnd: true });
      }
    } else {
      for (let i = this.firstAfter(settings.after); i < this.history.length; i++) {
        const change = this.history[i] as HistoryEvent<T>;
        if (options.namespace !== undefined && change.namespace !== options.namespace) continue;
        const event = watch.convert(change);
        if (event !== undefined) backlog.push(event);
      }
    }
    this.register(watch);
    if (options.signal !== undefined) {
      if (options.signal.aborted) watch.stop();
      else options.signal.addEventListener("abort", () => watch.stop(), { once: true });
    }
    return watch;
  }

  /** Stops following the store and ends every watch. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.bookmarkTimer);
    this.stopFollowing.abort();
    this.stopAllWatches();
    this.notify();
  }

  private page(
    slots: readonly Slot<T>[],
    revision: number,
    options: ListOptions<T>,
    startKey: string | undefined,
    limit: number,
  ): ListPage<T> {
    const filter = options.filter;
    const [from, to] = this.range(slots, options.namespace, startKey);
    const items: CachedObject<T>[] = [];
    let i = from;
    while (i < to) {
      const item = (slots[i++] as Slot<T>).item;
      if (filter !== undefined && !filter(item.object)) continue;
      items.push(item);
      if (limit > 0 && items.length === limit) break;
    }
    const last = items.at(-1);
    if (i >= to || last === undefined) return { items, resourceVersion: revision };
    const token = encodeContinue(`${last.key}\u0000`, this.prefix, revision);
    if (filter !== undefined) return { items, resourceVersion: revision, continue: token };
    return { items, resourceVersion: revision, continue: token, remainingItemCount: to - i };
  }

  /** Index range of the namespace (or the whole prefix) in `slots`, from `startKey` on. */
  private range(
    slots: readonly Slot<T>[],
    namespace: string | undefined,
    startKey: string | undefined,
  ): [number, number] {
    const scope = namespace === undefined ? this.prefix : `${this.prefix}${namespace}/`;
    const end = prefixEnd(scope);
    const first = startKey !== undefined && compareKeys(startKey, scope) > 0 ? startKey : scope;
    return [lowerBound(slots, first), end === undefined ? slots.length : lowerBound(slots, end)];
  }

  /** The state at `revision` (within the window): the current one, or a snapshot rebuilt by undoing later changes. */
  private stateAt(revision: number): readonly Slot<T>[] {
    if (revision >= this.revision) return this.slots;
    const kept = this.snapshots.get(revision);
    if (kept !== undefined) return kept;
    const undone = new Map<string, CachedObject<T> | undefined>();
    for (let i = this.history.length - 1; i >= this.historyAt; i--) {
      const change = this.history[i] as HistoryEvent<T>;
      if (change.revision <= revision) break;
      undone.set(change.key, change.prev);
    }
    const revived: Slot<T>[] = [];
    for (const [key, item] of undone) if (item !== undefined && !this.byKey.has(key)) revived.push({ key, item });
    revived.sort((a, b) => compareKeys(a.key, b.key));
    const snapshot: Slot<T>[] = [];
    let r = 0;
    for (const slot of this.slots) {
      while (r < revived.length && compareKeys((revived[r] as Slot<T>).key, slot.key) < 0)
        snapshot.push(revived[r++] as Slot<T>);
      if (!undone.has(slot.key)) snapshot.push({ key: slot.key, item: slot.item });
      else {
        const item = undone.get(slot.key);
        if (item !== undefined) snapshot.push({ key: slot.key, item });
      }
    }
    while (r < revived.length) snapshot.push(revived[r++] as Slot<T>);
    if (this.snapshots.size >= snapshotsKept) this.snapshots.delete(this.snapshots.keys().next().value as number);
    this.snapshots.set(revision, snapshot);
    return snapshot;
  }

  /** True when `revision` predates what the window still holds (trimming the window first). */
  private tooOld(revision: number): boolean {
    this.trim();
    return revision < this.oldest;
  }

  private trim(): void {
    const cutoff = this.now() - this.windowMs;
    let evicted = false;
    while (this.historyAt < this.history.length) {
      const change = this.history[this.historyAt] as HistoryEvent<T>;
      if (change.time > cutoff) break;
      this.oldest = change.revision;
      this.historyAt++;
      evicted = true;
    }
    if (!evicted) return;
    if (this.historyAt > 1024 && this.historyAt * 2 > this.history.length) {
      this.history = this.history.slice(this.historyAt);
      this.historyAt = 0;
    }
    for (const revision of this.snapshots.keys()) if (revision < this.oldest) this.snapshots.delete(revision);
  }

  /** Index of the first change in history after `revision`. */
  private firstAfter(revision: number): number {
    let lo = this.historyAt;
    let hi = this.history.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.history[mid] as HistoryEvent<T>).revision <= revision) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** A consistent read: the store's current revision, then wait until the cache has caught up with it. */
  private async waitForStore(): Promise<void> {
    await this.waitFor(await this.store.currentRevision());
  }

  /** Waits, bounded, until the cache has reached `target`; then 504 Too large resource version. */
  private async waitFor(target: number): Promise<void> {
    if (this.revision >= target) {
      this.metrics?.readWait(0);
      return;
    }
    const started = performance.now();
    const deadline = started + this.freshnessMs;
    try {
      for (;;) {
        await this.requestProgress();
        if (this.revision >= target) return;
        const left = deadline - performance.now();
        if (left <= 0 || this.closed) throw new TooLargeResourceVersionError(target, this.revision);
        await this.changeOrTimeout(Math.min(left, progressPollMs));
      }
    } finally {
      this.metrics?.readWait((performance.now() - started) / 1000);
    }
  }

  /**
   * The store's watch carries only this prefix's events, so writes elsewhere advance the revision
   * unseen; this plays etcd's progress notification. Both backends queue a watch event at commit, before
   * `currentRevision()` can report it, and hand queued events over in microtasks: after one macrotask
   * turn with the follower idle, every event up to the reported revision has been applied.
   */
  private async requestProgress(): Promise<void> {
    const reported = await this.store.currentRevision();
    if (reported <= this.revision) return;
    await nextMacrotask();
    if (this.idle && reported > this.revision) {
      this.revision = reported;
      this.metrics?.dispatched();
      this.metrics?.resourceVersion(reported);
      this.notify();
    }
  }

  private changeOrTimeout(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiters.add(done);
    });
  }

  private notify(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  /** Loads the prefix and opens the store's watch right after it; the window restarts at the list. */
  private async relist(): Promise<AsyncIterableIterator<WatchEvent>> {
    this.idle = false;
    const listed = await this.store.list(this.prefix);
    const changes = await this.store.watch(this.prefix, listed.revision, this.stopFollowing.signal);
    this.slots = listed.kvs.map((kv) => ({ key: kv.key, item: this.cached(kv) }));
    this.byKey.clear();
    for (const slot of this.slots) this.byKey.set(slot.key, slot);
    this.history = [];
    this.historyAt = 0;
    this.snapshots.clear();
    this.oldest = listed.revision;
    this.revision = Math.max(this.revision, listed.revision);
    this.metrics?.initialized();
    this.metrics?.resourceVersion(this.revision);
    return changes;
  }

  /** Applies the store's events; when the store drops the watch (a compacted laggard), relists. */
  private async follow(changes: AsyncIterableIterator<WatchEvent>): Promise<void> {
    let current = changes;
    while (!this.closed) {
      try {
        for (;;) {
          this.idle = true;
          const next = await current.next();
          this.idle = false;
          if (next.done) return;
          this.apply(next.value);
        }
      } catch (error) {
        this.idle = false;
        if (this.closed || error instanceof StoreClosedError) return;
        // Watches cannot be continued across a relist, as kube's cacher terminates them on Replace.
        this.stopAllWatches();
        try {
          current = await this.relist();
        } catch {
          return this.close();
        }
      }
    }
  }

  private apply(event: WatchEvent): void {
    const key = event.kv.key;
    const slot = this.byKey.get(key);
    const prev = slot?.item;
    let object: CachedObject<T> | undefined;
    if (event.type === "put") {
      object = this.cached(event.kv);
      if (slot !== undefined) slot.item = object;
      else this.insert({ key, item: object });
    } else if (slot !== undefined) {
      this.remove(slot);
    }
    const change: HistoryEvent<T> = {
      revision: event.revision,
      key,
      namespace: namespaceOf(key, this.prefix),
      object,
      prev,
      time: this.now(),
    };
    this.history.push(change);
    this.revision = Math.max(this.revision, event.revision);
    this.metrics?.received();
    this.metrics?.resourceVersion(this.revision);
    this.trim();
    this.dispatch(change);
    this.metrics?.dispatched();
    this.notify();
  }

  private dispatch(change: HistoryEvent<T>): void {
    for (const watch of this.allNamespaceWatches) watch.offer(change);
    if (change.namespace === undefined) return;
    const scoped = this.namespaceWatches.get(change.namespace);
    if (scoped !== undefined) for (const watch of scoped) watch.offer(change);
  }

  private cached(kv: KeyValue): CachedObject<T> {
    return {
      key: kv.key,
      namespace: namespaceOf(kv.key, this.prefix),
      object: deepFreeze(this.decode(kv)),
      kv,
      encoded: new Map(),
    };
  }

  private insert(slot: Slot<T>): void {
    this.slots.splice(lowerBound(this.slots, slot.key), 0, slot);
    this.byKey.set(slot.key, slot);
  }

  private remove(slot: Slot<T>): void {
    this.slots.splice(lowerBound(this.slots, slot.key), 1);
    this.byKey.delete(slot.key);
  }

  private register(watch: CacheWatch<T>): void {
    countWatchers(1);
    if (watch.namespace === undefined) {
      this.allNamespaceWatches.add(watch);
      return;
    }
    let scoped = this.namespaceWatches.get(watch.namespace);
    if (scoped === undefined) {
      scoped = new Set();
      this.namespaceWatches.set(watch.namespace, scoped);
    }
    scoped.add(watch);
  }

  private unregister(watch: CacheWatch<T>): void {
    countWatchers(-1);
    if (watch.namespace === undefined) {
      this.allNamespaceWatches.delete(watch);
      return;
    }
    const scoped = this.namespaceWatches.get(watch.namespace);
    scoped?.delete(watch);
    if (scoped?.size === 0) this.namespaceWatches.delete(watch.namespace);
  }

  private sendBookmarks(): void {
    for (const watch of this.allNamespaceWatches) watch.requestBookmark();
    for (const scoped of this.namespaceWatches.values()) for (const watch of scoped) watch.requestBookmark();
  }

  private stopAllWatches(): void {
    for (const watch of [...this.allNamespaceWatches]) watch.stop();
    for (const scoped of [...this.namespaceWatches.values()]) for (const watch of [...scoped]) watch.stop();
  }
}

function namespaceOf(key: string, prefix: string): string | undefined {
  const slash = key.indexOf("/", prefix.length);
  return slash < 0 ? undefined : key.slice(prefix.length, slash);
}

/** Index of the first slot whose key is not before `key`. */
function lowerBound<T>(slots: readonly Slot<T>[], key: string): number {
  let lo = 0;
  let hi = slots.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareKeys((slots[mid] as Slot<T>).key, key) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
