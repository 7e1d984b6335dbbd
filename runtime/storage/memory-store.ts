// The in-memory backend for tests and in-process use: a revision log for watches plus, per key, the
// revisions at which it changed, for MVCC reads; a sorted key array serves ranges.

import { compareKeys } from "./key-order.js";
import { readRevision } from "./read-revision.js";
import {
  CompactedError,
  ConflictError,
  FutureRevisionError,
  KeyExistsError,
  NotFoundError,
  StoreClosedError,
} from "./storage-errors.js";
import type {
  DeleteOptions,
  DeleteResult,
  KeyValue,
  ListOptions,
  ListResult,
  ReadOptions,
  Store,
  WatchEvent,
} from "./store.js";
import { type HistoryPage, WatchHub, type WatchHubOptions } from "./watch-hub.js";

/** A key's state from `revision` on; undefined after a delete. */
interface Change {
  revision: number;
  kv: KeyValue | undefined;
}

const empty = new Uint8Array(0);

export class MemoryStore implements Store {
  private revision = 1;
  private compacted = 0;
  /** log[i] is the event of revision logStart + i. */
  private log: WatchEvent[] = [];
  private logStart = 2;
  private readonly changes = new Map<string, Change[]>();
  private keys: string[] = [];
  private readonly hub: WatchHub;
  private closed = false;

  constructor(options: WatchHubOptions = {}) {
    this.hub = new WatchHub(
      {
        readHistory: (prefix, after, limit) => this.readHistory(prefix, after, limit),
        compactRevision: () => this.compacted,
      },
      options,
    );
  }

  async currentRevision(): Promise<number> {
    this.assertOpen();
    return this.revision;
  }

  async get(key: string, options: ReadOptions = {}): Promise<KeyValue | undefined> {
    this.assertOpen();
    const revision = readRevision(options.revision, this.revision, this.compacted);
    return stateAt(this.changes.get(key), revision);
  }

  async list(prefix: string, options: ListOptions = {}): Promise<ListResult> {
    this.assertOpen();
    const revision = readRevision(options.revision, this.revision, this.compacted);
    const limit = options.limit ?? 0;
    const from =
      options.startKey !== undefined && compareKeys(options.startKey, prefix) > 0 ? options.startKey : prefix;
    const kvs: KeyValue[] = [];
    let count = 0;
    for (let i = lowerBound(this.keys, from); i < this.keys.length; i++) {
      const key = this.keys[i] as string;
      if (!key.startsWith(prefix)) break;
      const kv = stateAt(this.changes.get(key), revision);
      if (kv === undefined) continue;
      count++;
      if (limit === 0 || kvs.length < limit) kvs.push(kv);
    }
    return { kvs, revision, more: count > kvs.length, count };
  }

  async create(key: string, value: Uint8Array): Promise<KeyValue> {
    this.assertOpen();
    if (this.current(key) !== undefined) throw new KeyExistsError(key);
    const revision = this.revision + 1;
    const kv = { key, value: value.slice(), createRevision: revision, modRevision: revision, version: 1 };
    this.commit(key, kv, { type: "put", kv, revision });
    return kv;
  }

  async update(key: string, value: Uint8Array, expectedModRevision: number): Promise<KeyValue> {
    this.assertOpen();
    const prevKv = this.current(key);
    if (prevKv === undefined) throw new NotFoundError(key);
    if (prevKv.modRevision !== expectedModRevision) throw new ConflictError(prevKv, expectedModRevision);
    const revision = this.revision + 1;
    const kv = {
      key,
      value: value.slice(),
      createRevision: prevKv.createRevision,
      modRevision: revision,
      version: prevKv.version + 1,
    };
    this.commit(key, kv, { type: "put", kv, prevKv, revision });
    return kv;
  }

  async delete(key: string, options: DeleteOptions = {}): Promise<DeleteResult> {
    this.assertOpen();
    const prevKv = this.current(key);
    if (prevKv === undefined) throw new NotFoundError(key);
    const expected = options.expectedModRevision;
    if (expected !== undefined && prevKv.modRevision !== expected) throw new ConflictError(prevKv, expected);
    const revision = this.revision + 1;
    const tombstone = { key, value: empty, createRevision: 0, modRevision: revision, version: 0 };
    this.commit(key, undefined, { type: "delete", kv: tombstone, prevKv, revision });
    return { kv: prevKv, revision };
  }

  async watch(prefix: string, fromRevision: number, signal?: AbortSignal): Promise<AsyncIterableIterator<WatchEvent>> {
    this.assertOpen();
    return this.hub.watch(prefix, fromRevision, this.revision, signal);
  }

  async compact(revision: number): Promise<void> {
    this.assertOpen();
    if (revision > this.revision) throw new FutureRevisionError(revision, this.revision);
    if (revision <= this.compacted) throw new CompactedError(this.compacted, revision);
    const gone = new Set<string>();
    for (const [key, changes] of this.changes) {
      // Keep the state at `revision` (unless it is a delete) and everything after it.
      let keep = upperBound(changes, revision) - 1;
      if (keep >= 0 && changes[keep]?.kv === undefined) keep++;
      if (keep <= 0) continue;
      changes.splice(0, keep);
      if (changes.length === 0) {
        this.changes.delete(key);
        gone.add(key);
      }
    }
    if (gone.size > 0) this.keys = this.keys.filter((key) => !gone.has(key));
    this.log.splice(0, revision + 1 - this.logStart);
    this.logStart = revision + 1;
    this.compacted = revision;
  }

  async probe(): Promise<void> {
    this.assertOpen();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.hub.closeAll();
  }

  private readHistory(prefix: string, after: number, limit: number): HistoryPage {
    const events: WatchEvent[] = [];
    for (let i = Math.max(0, after + 1 - this.logStart); i < this.log.length; i++) {
      const event = this.log[i] as WatchEvent;
      if (!event.kv.key.startsWith(prefix)) continue;
      events.push(event);
      if (events.length === limit) {
        return { events, through: event.revision, complete: event.revision === this.revision };
      }
    }
    return { events, through: this.revision, complete: true };
  }

  private current(key: string): KeyValue | undefined {
    return this.changes.get(key)?.at(-1)?.kv;
  }

  private commit(key: string, kv: KeyValue | undefined, event: WatchEvent): void {
    this.revision = event.revision;
    let changes = this.changes.get(key);
    if (changes === undefined) {
      changes = [];
      this.changes.set(key, changes);
      this.keys.splice(lowerBound(this.keys, key), 0, key);
    }
    changes.push({ revision: event.revision, kv });
    this.log.push(event);
    this.hub.publish(event);
  }

  private assertOpen(): void {
    if (this.closed) throw new StoreClosedError();
  }
}

function stateAt(changes: Change[] | undefined, revision: number): KeyValue | undefined {
  if (changes === undefined) return undefined;
  return changes[upperBound(changes, revision) - 1]?.kv;
}

/** Index of the first change after `revision`. */
function upperBound(changes: Change[], revision: number): number {
  let lo = 0;
  let hi = changes.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((changes[mid] as Change).revision <= revision) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index of the first key not before `key`. */
function lowerBound(keys: string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareKeys(keys[mid] as string, key) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
