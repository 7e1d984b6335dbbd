// The objects of one stored resource: writes go to the store, reads are served by the resource's watch
// cache. Objects are stored as JSON in the storage version without their resourceVersion, which is the
// store's modRevision and set on decode, so a write never needs to know its own revision in advance.

import type { MetricRegistry } from "../metrics/metric-registry.js";
import type { KubeObject } from "../object/kube-object.js";
import type { KeyValue, Store } from "../storage/store.js";
import { cacheMetrics } from "../watch-cache/cache-metrics.js";
import { WatchCache } from "../watch-cache/watch-cache.js";
import { objectMeta } from "./object-access.js";

export interface ResourceStorageOptions {
  store: Store;
  prefix: string;
  historyWindowMs?: number;
  /** The server's registry, for the watch cache's families. */
  metrics?: MetricRegistry;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function decodeStored(kv: KeyValue): KubeObject {
  const obj = JSON.parse(decoder.decode(kv.value)) as KubeObject;
  objectMeta(obj).resourceVersion = String(kv.modRevision);
  return obj;
}

/** The bytes to store: the object without the resourceVersion it was read or sent with. */
export function encodeStored(obj: KubeObject): Uint8Array {
  const meta = objectMeta(obj);
  const { resourceVersion: _, ...rest } = meta;
  return encoder.encode(JSON.stringify({ ...obj, metadata: rest }));
}

export class ResourceStorage {
  private readonly store: Store;
  readonly prefix: string;
  private readonly historyWindowMs: number | undefined;
  private readonly metrics: MetricRegistry | undefined;
  private opening: Promise<WatchCache<KubeObject>> | undefined;

  constructor(options: ResourceStorageOptions) {
    this.store = options.store;
    this.prefix = options.prefix;
    this.historyWindowMs = options.historyWindowMs;
    this.metrics = options.metrics;
  }

  /** The watch cache, opened on first use: most resources of a server are never read. */
  cache(): Promise<WatchCache<KubeObject>> {
    this.opening ??= WatchCache.open({
      store: this.store,
      prefix: this.prefix,
      decode: decodeStored,
      ...(this.historyWindowMs === undefined ? {} : { historyWindowMs: this.historyWindowMs }),
      ...(this.metrics === undefined ? {} : { metrics: cacheMetrics(this.metrics, this.prefix) }),
    });
    return this.opening;
  }

  /** The watch cache if something has opened it, else undefined (opening it is left to its first use). */
  opened(): Promise<WatchCache<KubeObject>> | undefined {
    return this.opening;
  }

  close(): void {
    void this.opening?.then((cache) => cache.close());
  }
}
