// Watches for backends whose writes all go through one store object. A watcher first pages through
// history, then receives events pushed at commit time. JavaScript runs a history read and the commits
// around it one after the other, so the switch from history to live has neither gap nor duplicate.
// A consumer that lets too many live events pile up drops them and pages through history again, as
// etcd's unsynced watchers do, so a slow consumer costs bounded memory.

import { stopOnAbort } from "./abort-listener.js";
import { CompactedError } from "./storage-errors.js";
import type { WatchEvent } from "./store.js";

export interface HistoryPage {
  /** Events under the prefix with revision > after, in order. */
  events: WatchEvent[];
  /** The highest revision the page accounts for. */
  through: number;
  /** True when `through` is the current revision: nothing newer exists yet. */
  complete: boolean;
}

export interface HistorySource {
  /**
   * Synchronous, so that no write commits between the read and the watcher going live. Called only with
   * `after` at or above the compact revision.
   */
  readHistory(prefix: string, after: number, limit: number): HistoryPage;
  compactRevision(): number;
}

export interface WatchHubOptions {
  /** Events read from history per page. */
  pageSize?: number;
  /** Live events a watcher may hold undelivered before it falls back to history. */
  maxQueued?: number;
}

export class WatchHub {
  private readonly watchers = new Set<Watcher>();
  readonly pageSize: number;
  readonly maxQueued: number;

  constructor(
    private readonly source: HistorySource,
    options: WatchHubOptions = {},
  ) {
    this.pageSize = options.pageSize ?? 1000;
    this.maxQueued = options.maxQueued ?? 10_000;
  }

  /** Starts a watch; throws CompactedError when events after `fromRevision` are no longer all kept. */
  watch(prefix: string, fromRevision: number, current: number, signal?: AbortSignal): Watcher {
    if (!Number.isSafeInteger(fromRevision) || fromRevision < 0)
      throw new RangeError(`invalid revision: ${fromRevision}`);
    const compacted = this.source.compactRevision();
    if (fromRevision < compacted) throw new CompactedError(compacted, fromRevision);
    const watcher = new Watcher(this, this.source, prefix, fromRevision, current);
    this.watchers.add(watcher);
    if (signal !== undefined) watcher.stopOn(signal);
    return watcher;
  }

  /** Called by the store right after each write commits. */
  publish(event: WatchEvent): void {
    for (const watcher of this.watchers) watcher.offer(event);
  }

  remove(watcher: Watcher): void {
    this.watchers.delete(watcher);
  }

  closeAll(): void {
    for (const watcher of this.watchers) watcher.stop();
  }
}

export class Watcher implements AsyncIterableIterator<WatchEvent> {
  private queue: WatchEvent[] = [];
  /** Highest revision already queued or delivered. */
  private cursor: number;
  /** Highest revision delivered to the consumer. */
  private delivered: number;
  private live: boolean;
  private done = false;
  private wake: (() => void) | undefined;
  private tail: Promise<unknown> = Promise.resolve();
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly hub: WatchHub,
    private readonly source: HistorySource,
    private readonly prefix: string,
    private readonly fromRevision: number,
    current: number,
  ) {
    this.cursor = Math.min(fromRevision, current);
    this.delivered = this.cursor;
    this.live = this.cursor === current;
  }

  stopOn(signal: AbortSignal): void {
    this.unsubscribe = stopOnAbort(signal, () => this.stop());
  }

  offer(event: WatchEvent): void {
    if (!this.live) return;
    this.cursor = event.revision;
    if (event.revision <= this.fromRevision || !event.kv.key.startsWith(this.prefix)) return;
    this.queue.push(event);
    if (this.queue.length > this.hub.maxQueued) {
      this.queue = [];
      this.cursor = this.delivered;
      this.live = false;
    }
    this.wakeUp();
  }

  next(): Promise<IteratorResult<WatchEvent>> {
    // Calls made without awaiting the previous one are served in order.
    const result = this.tail.then(() => this.pull());
    this.tail = result.catch(() => undefined);
    return result;
  }

  async return(): Promise<IteratorResult<WatchEvent>> {
    this.stop();
    return { done: true, value: undefined };
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<WatchEvent> {
    return this;
  }

  stop(): void {
    if (this.done) return;
    this.done = true;
    this.queue = [];
    this.hub.remove(this);
    this.unsubscribe?.();
    this.wakeUp();
  }

  private async pull(): Promise<IteratorResult<WatchEvent>> {
    for (;;) {
      if (this.done) return { done: true, value: undefined };
      const event = this.queue.shift();
      if (event !== undefined) {
        this.delivered = event.revision;
        return { done: false, value: event };
      }
      if (!this.live) {
        this.catchUp();
        continue;
      }
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
  }

  private catchUp(): void {
    try {
      const compacted = this.source.compactRevision();
      if (this.cursor < compacted) throw new CompactedError(compacted, this.cursor);
      const page = this.source.readHistory(this.prefix, this.cursor, this.hub.pageSize);
      this.queue = page.events.filter((event) => event.revision > this.fromRevision);
      this.cursor = page.through;
      this.live = page.complete;
    } catch (error) {
      this.stop();
      throw error;
    }
  }

  private wakeUp(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
