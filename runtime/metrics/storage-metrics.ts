// kube's storage families for kapi's store: etcd_requests_total and etcd_request_duration_seconds per
// operation and resource (named as kube's etcd3 store names its calls: get, list, create, update,
// delete), recorded by a Store that forwards to the real one, and the object counts per resource
// (apiserver_resource_objects, and the deprecated apiserver_storage_objects) counted at scrape.
import { statSync } from "node:fs";
import type { Counter, Histogram } from "prom-client";
import type {
  DeleteOptions,
  DeleteResult,
  KeyValue,
  ListOptions,
  ListResult,
  ReadOptions,
  Store,
  WatchEvent,
} from "../storage/store.js";
import type { MetricRegistry } from "./metric-registry.js";

type Operation = "get" | "list" | "create" | "update" | "delete";
type EtcdLabels = "operation" | "group" | "resource";

const etcdLatencyBuckets = [
  0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60,
];

/** The group and resource of a key under `/registry/<group>/<resource>/` (group "core" is kube's ""). */
export function keyResource(key: string): { group: string; resource: string } | undefined {
  const match = /^\/registry\/([^/]+)\/([^/]+)\//.exec(key);
  if (match === null) return undefined;
  const group = match[1] as string;
  return { group: group === "core" ? "" : group, resource: match[2] as string };
}

export class InstrumentedStore implements Store {
  readonly #store: Store;
  readonly #requests: Counter<EtcdLabels>;
  readonly #latency: Histogram<EtcdLabels>;

  constructor(store: Store, metrics: MetricRegistry) {
    this.#store = store;
    this.#requests = metrics.counter({
      name: "etcd_requests_total",
      help: "Etcd request counts for each operation and object type.",
      labelNames: ["operation", "group", "resource"],
      stabilityLevel: "ALPHA",
    });
    this.#latency = metrics.histogram({
      name: "etcd_request_duration_seconds",
      help: "Etcd request latency in seconds for each operation and object type.",
      labelNames: ["operation", "group", "resource"],
      buckets: etcdLatencyBuckets,
      stabilityLevel: "ALPHA",
    });
  }

  async #measure<T>(operation: Operation, key: string, call: () => Promise<T>): Promise<T> {
    const resource = keyResource(key);
    if (resource === undefined) return call();
    const started = performance.now();
    try {
      return await call();
    } finally {
      const labels = { operation, group: resource.group, resource: resource.resource };
      this.#requests.inc(labels);
      this.#latency.observe(labels, (performance.now() - started) / 1000);
    }
  }

  currentRevision(): Promise<number> {
    return this.#store.currentRevision();
  }
  get(key: string, options?: ReadOptions): Promise<KeyValue | undefined> {
    return this.#measure("get", key, () => this.#store.get(key, options));
  }
  list(prefix: string, options?: ListOptions): Promise<ListResult> {
    return this.#measure("list", prefix, () => this.#store.list(prefix, options));
  }
  create(key: string, value: Uint8Array): Promise<KeyValue> {
    return this.#measure("create", key, () => this.#store.create(key, value));
  }
  update(key: string, value: Uint8Array, expectedModRevision: number): Promise<KeyValue> {
    return this.#measure("update", key, () => this.#store.update(key, value, expectedModRevision));
  }
  delete(key: string, options?: DeleteOptions): Promise<DeleteResult> {
    return this.#measure("delete", key, () => this.#store.delete(key, options));
  }
  watch(prefix: string, fromRevision: number, signal?: AbortSignal): Promise<AsyncIterableIterator<WatchEvent>> {
    return this.#store.watch(prefix, fromRevision, signal);
  }
  compact(revision: number): Promise<void> {
    return this.#store.compact(revision);
  }
  probe(): Promise<void> {
    return this.#store.probe();
  }
  close(): Promise<void> {
    return this.#store.close();
  }
}

/** A stored resource to count: its labels and where its objects live. */
export interface CountedResource {
  group: string;
  resource: string;
  prefix: string;
}

/**
 * The object counts per stored resource, counted (etcd's count, one cheap read per resource) at scrape;
 * a failed count reports -1, as kube's does.
 */
export function registerObjectCounts(
  metrics: MetricRegistry,
  store: Pick<Store, "list">,
  resources: () => CountedResource[],
): void {
  const help =
    "Number of stored objects at the time of last check split by kind. In case of a fetching error, the value will be -1.";
  const count = async (r: CountedResource) => {
    try {
      return (await store.list(r.prefix, { limit: 1 })).count;
    } catch {
      return -1;
    }
  };
  metrics.gauge({
    name: "apiserver_resource_objects",
    help,
    labelNames: ["group", "resource"],
    stabilityLevel: "ALPHA",
    async collect() {
      for (const r of resources()) this.set({ group: r.group, resource: r.resource }, await count(r));
    },
  });
  metrics.gauge({
    name: "apiserver_storage_objects",
    help: `[DEPRECATED, consider using apiserver_resource_objects instead] ${help}`,
    labelNames: ["resource"],
    stabilityLevel: "STABLE",
    deprecatedVersion: "1.34.0",
    async collect() {
      for (const r of resources()) {
        const name = r.group === "" ? r.resource : `${r.resource}.${r.group}`;
        this.set({ resource: name }, await count(r));
      }
    },
  });
}

/**
 * apiserver_storage_size_bytes for a store in a database file: the file's size with its write-ahead log,
 * labelled as kube labels its single etcd cluster.
 */
export function registerStorageSize(metrics: MetricRegistry, databasePath: string): void {
  metrics.gauge({
    name: "apiserver_storage_size_bytes",
    help: "Size of the storage database file physically allocated in bytes.",
    labelNames: ["storage_cluster_id"],
    stabilityLevel: "STABLE",
    collect() {
      let bytes = 0;
      for (const file of [databasePath, `${databasePath}-wal`]) {
        try {
          bytes += statSync(file).size;
        } catch {
          // No write-ahead log yet.
        }
      }
      this.set({ storage_cluster_id: "etcd-0" }, bytes);
    },
  });
}
