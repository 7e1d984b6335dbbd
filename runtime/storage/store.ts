// The storage interface: etcd's KV and watch API reduced to what an API server needs, so that an etcd
// backend maps onto it one call to one RPC. Revisions are global, start at 1 and grow by one per write.

/** One stored entry, as etcd's mvccpb.KeyValue. */
export interface KeyValue {
  readonly key: string;
  /** Opaque bytes; the store keeps them as written and hands out the same bytes, never to be mutated. */
  readonly value: Uint8Array;
  /** Revision of the write that created the key (since its last deletion). */
  readonly createRevision: number;
  /** Revision of the last write to the key: the resourceVersion of the object. */
  readonly modRevision: number;
  /** Number of writes since creation: 1 after create. */
  readonly version: number;
}

export interface ReadOptions {
  /** Read the state as of this revision; absent or 0 reads the current revision. */
  revision?: number;
}

export interface ListOptions extends ReadOptions {
  /** First key to return (inclusive); keys before it are skipped. Continue tokens pass `lastKey + "\0"`. */
  startKey?: string;
  /** At most this many entries; absent or 0 means no limit. */
  limit?: number;
}

export interface ListResult {
  readonly kvs: readonly KeyValue[];
  /** The revision the list was read at: pass it back in `revision` to page through a consistent snapshot. */
  readonly revision: number;
  /** True when keys in range were left out because of `limit`. */
  readonly more: boolean;
  /** Number of keys in range from `startKey` on, as etcd's count (returned ones included). */
  readonly count: number;
}

export interface DeleteOptions {
  /** Delete only if the key's modRevision is this one. */
  expectedModRevision?: number;
}

export interface DeleteResult {
  /** The entry as it was before deletion. */
  readonly kv: KeyValue;
  /** The revision of the deletion. */
  readonly revision: number;
}

/**
 * A change, as etcd's mvccpb.Event. For a delete, `kv` is etcd's tombstone (key and modRevision only,
 * empty value) and `prevKv` the deleted entry; for an update `prevKv` is the entry it replaced.
 */
export interface WatchEvent {
  readonly type: "put" | "delete";
  readonly kv: KeyValue;
  readonly prevKv?: KeyValue;
  readonly revision: number;
}

export interface Store {
  /** The revision of the last write (1 for an empty store). */
  currentRevision(): Promise<number>;
  get(key: string, options?: ReadOptions): Promise<KeyValue | undefined>;
  /** Keys starting with `prefix`, in byte order of their UTF-8 encoding. */
  list(prefix: string, options?: ListOptions): Promise<ListResult>;
  /** Fails with KeyExistsError when the key is present. */
  create(key: string, value: Uint8Array): Promise<KeyValue>;
  /** Fails with NotFoundError when absent, ConflictError when its modRevision is not the expected one. */
  update(key: string, value: Uint8Array, expectedModRevision: number): Promise<KeyValue>;
  /** Fails with NotFoundError when absent, ConflictError when a precondition does not hold. */
  delete(key: string, options?: DeleteOptions): Promise<DeleteResult>;
  /**
   * Every event on keys under `prefix` with revision > `fromRevision`, in revision order: first from
   * history, then live, until `signal` aborts, the iterator is returned, or the store closes. Rejects with
   * CompactedError when `fromRevision` is older than the compact revision; the iterator throws it later
   * if a consumer falls so far behind that the events it still needs were compacted.
   */
  watch(prefix: string, fromRevision: number, signal?: AbortSignal): Promise<AsyncIterableIterator<WatchEvent>>;
  /** Forget history before `revision`: reads and watches from older revisions fail with CompactedError. */
  compact(revision: number): Promise<void>;
  /**
   * A cheap round trip to the backend, as etcd's health check reads one key: resolves when it answers,
   * rejects (StoreClosedError once closed) when it does not. The server's `etcd` health checks call it.
   */
  probe(): Promise<void>;
  /** Ends all watches and releases the backend; later calls fail with StoreClosedError. */
  close(): Promise<void>;
}
