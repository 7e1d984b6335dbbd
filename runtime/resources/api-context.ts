// What the write and read paths share within one server: storage per resource, admission, the clock.
import type { AdmissionPlugin } from "../admission/admission.js";
import type { MetricRegistry } from "../metrics/metric-registry.js";
import type { ServedKind } from "../registry/served-kind.js";
import { ServerLocals } from "../registry/server-locals.js";
import type { WriteEnvironment } from "../registry/strategy.js";
import type { Store } from "../storage/store.js";
import { ResourceStorage } from "./resource-storage.js";
import { objectKey, storagePrefix, storageResourceOf } from "./storage-key.js";

export interface Target {
  /** The kind served at the request's group, version and resource. */
  kind: ServedKind;
  /** Set for namespaced requests; undefined lists across namespaces. */
  namespace?: string | undefined;
  name?: string | undefined;
  subresource?: string | undefined;
}

export class ApiContext {
  private readonly storages = new Map<string, ResourceStorage>();
  /** The facilities strategies' claim and release hooks use (runtime/registry/server-locals.ts). */
  readonly locals = new ServerLocals();

  constructor(
    readonly store: Store,
    readonly admission: readonly AdmissionPlugin[],
    readonly now: () => Date,
    private readonly historyWindowMs: number | undefined,
    private readonly metrics?: MetricRegistry,
  ) {}

  storageOf(kind: ServedKind): ResourceStorage {
    // Every version of a resource shares its storage version's group and resource, so its storage too; a
    // resource stored as another (`storedAs`) shares that one's storage and watch cache.
    const prefix = storagePrefix(storageResourceOf(kind));
    let storage = this.storages.get(prefix);
    if (storage === undefined) {
      storage = new ResourceStorage({
        store: this.store,
        prefix,
        ...(this.historyWindowMs === undefined ? {} : { historyWindowMs: this.historyWindowMs }),
        ...(this.metrics === undefined ? {} : { metrics: this.metrics }),
      });
      this.storages.set(prefix, storage);
    }
    return storage;
  }

  /** The watch caches opened so far, settled or still listing. */
  openedCaches(): Promise<unknown>[] {
    const opened: Promise<unknown>[] = [];
    for (const storage of this.storages.values()) {
      const cache = storage.opened();
      if (cache !== undefined) opened.push(cache);
    }
    return opened;
  }

  /** What a write's claim and release hooks see. */
  writeEnvironment(dryRun: boolean): WriteEnvironment {
    return { dryRun, local: (key) => this.locals.get(key) };
  }

  keyOf(target: Target, name: string): string {
    const namespaced = target.kind.resource.scope === "Namespaced";
    return objectKey(this.storageOf(target.kind).prefix, namespaced ? target.namespace : undefined, name);
  }

  close(): void {
    for (const storage of this.storages.values()) storage.close();
  }
}
