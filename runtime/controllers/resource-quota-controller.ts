// kube-controller-manager's resourcequota controller: keeps every ResourceQuota's status, `hard` as its spec
// says and `used` as what its namespace holds. It follows every stored object (one feed over the store) and
// recalculates the quotas of a namespace when a quota is created or its spec.hard changes, when a counted
// object is deleted, or changes in a way that changes its usage (a pod finishing, a claim growing); creates are
// charged by the ResourceQuota admission plugin instead, as kube's monitors ignore them. Every quota is
// recalculated every five minutes besides (kube's full resync), which also resets a status written by hand:
// status writes alone never trigger a recalculation.
import { type QuotaEvaluator, quotaScopeRequirements } from "../quota/evaluator.js";
import { quotaEvaluator } from "../quota/evaluators.js";
import {
  addLists,
  listsEqual,
  maskList,
  type ResourceList,
  readResourceList,
  writeResourceList,
  zeroList,
} from "../quota/resource-list.js";
import { builtinKind } from "../registry/kinds.js";
import type { ResourceApi } from "../resources/resource-api.js";
import type { JsonObject } from "../validation/walk.js";
import { outcomeOfWriteFailure } from "./api-errors.js";
import type { ControllerContext } from "./controller-context.js";
import { getExisting } from "./existing-objects.js";
import { type FeedHandlers, followRegistry, type StoredObject } from "./registry-feed.js";
import { type retryLater, WorkQueue } from "./work-queue.js";

const resourceQuotas = builtinKind("", "v1", "resourcequotas");

/** kube's --resource-quota-sync-period default. */
export const quotaResyncMs = 5 * 60_000;

interface Entry {
  namespace: string;
  /** `<group>/<resource>` */
  groupResource: string;
  object: JsonObject;
}

function hardOf(obj: JsonObject, part: "spec" | "status"): ResourceList {
  return readResourceList(((obj[part] ?? {}) as { hard?: unknown }).hard);
}

/** What of an object decides its quota usage and scopes: its usage and every scope the evaluator knows. */
function usageSignature(evaluator: QuotaEvaluator, obj: JsonObject, now: Date): string {
  const scopes = ["Terminating", "NotTerminating", "BestEffort", "NotBestEffort", "CrossNamespacePodAffinity"].map(
    (scopeName) => evaluator.matchesScope({ scopeName, operator: "Exists" }, obj),
  );
  const spec = (obj.spec ?? {}) as { priorityClassName?: unknown; volumeAttributesClassName?: unknown };
  return JSON.stringify([
    writeResourceList(evaluator.usage(obj, now)),
    scopes,
    spec.priorityClassName,
    spec.volumeAttributesClassName,
  ]);
}

export class ResourceQuotaController implements FeedHandlers {
  /** Stored namespaced objects by key. */
  private readonly objects = new Map<string, Entry>();
  /** Keys by namespace, then by group/resource. */
  private readonly byNamespace = new Map<string, Map<string, Set<string>>>();
  private readonly queue: WorkQueue<string>;

  constructor(
    private readonly api: ResourceApi,
    private readonly context: ControllerContext,
    private readonly resyncMs = quotaResyncMs,
  ) {
    this.queue = new WorkQueue((key) => this.sync(key), { name: "resourcequota controller", log: context.log });
  }

  async run(): Promise<void> {
    const timer = setInterval(() => this.enqueueAll(), this.resyncMs);
    timer.unref();
    try {
      await followRegistry(this.api.context.store, this.api.kinds, this, this.context);
    } finally {
      clearInterval(timer);
      await this.queue.stop();
    }
  }

  private index(key: string, entry: Entry): void {
    this.objects.set(key, entry);
    let resources = this.byNamespace.get(entry.namespace);
    if (resources === undefined) {
      resources = new Map();
      this.byNamespace.set(entry.namespace, resources);
    }
    let keys = resources.get(entry.groupResource);
    if (keys === undefined) {
      keys = new Set();
      resources.set(entry.groupResource, keys);
    }
    keys.add(key);
  }

  private unindex(key: string): Entry | undefined {
    const entry = this.objects.get(key);
    if (entry === undefined) return undefined;
    this.objects.delete(key);
    const resources = this.byNamespace.get(entry.namespace);
    const keys = resources?.get(entry.groupResource);
    keys?.delete(key);
    if (keys?.size === 0) resources?.delete(entry.groupResource);
    if (resources?.size === 0) this.byNamespace.delete(entry.namespace);
    return entry;
  }

  private entryOf(stored: StoredObject): Entry | undefined {
    if (stored.namespace === undefined) return undefined;
    return {
      namespace: stored.namespace,
      groupResource: `${stored.kind.group}/${stored.kind.resource.plural}`,
      object: stored.object as JsonObject,
    };
  }

  reset(objects: StoredObject[]): void {
    this.objects.clear();
    this.byNamespace.clear();
    for (const stored of objects) {
      const entry = this.entryOf(stored);
      if (entry !== undefined) this.index(stored.key, entry);
    }
    this.enqueueAll();
  }

  put(stored: StoredObject): void {
    const entry = this.entryOf(stored);
    if (entry === undefined) return;
    const previous = this.unindex(stored.key);
    this.index(stored.key, entry);
    if (entry.groupResource === "/resourcequotas") {
      if (previous === undefined || !listsEqual(hardOf(previous.object, "spec"), hardOf(entry.object, "spec"))) {
        this.queue.add(`${entry.namespace}/${stored.name}`);
      }
      return;
    }
    if (previous === undefined) return;
    const [group, resource] = entry.groupResource.split("/") as [string, string];
    const evaluator = quotaEvaluator(group, resource);
    if (evaluator === undefined) return;
    const now = new Date();
    if (usageSignature(evaluator, previous.object, now) !== usageSignature(evaluator, entry.object, now)) {
      this.replenish(entry.namespace);
    }
  }

  remove(key: string): void {
    const entry = this.unindex(key);
    if (entry === undefined || entry.groupResource === "/resourcequotas") return;
    const [group, resource] = entry.groupResource.split("/") as [string, string];
    if (quotaEvaluator(group, resource) !== undefined) this.replenish(entry.namespace);
  }

  private quotasIn(namespace: string): JsonObject[] {
    const keys = this.byNamespace.get(namespace)?.get("/resourcequotas") ?? new Set<string>();
    return [...keys].map((key) => (this.objects.get(key) as Entry).object);
  }

  private replenish(namespace: string): void {
    for (const quota of this.quotasIn(namespace)) {
      this.queue.add(`${namespace}/${String((quota.metadata as { name?: string }).name)}`);
    }
  }

  private enqueueAll(): void {
    for (const namespace of this.byNamespace.keys()) this.replenish(namespace);
  }

  /** kube's CalculateUsage: per served resource whose evaluator charges a hard name, its objects the feed has shown. */
  private calculateUsage(quota: JsonObject, namespace: string, hardNames: readonly string[]): ResourceList {
    const scopes = quotaScopeRequirements(quota);
    const now = new Date();
    const present = this.byNamespace.get(namespace);
    let usage: ResourceList = new Map();
    for (const kind of this.api.kinds.storedResources()) {
      if (kind.resource.scope !== "Namespaced") continue;
      const evaluator = quotaEvaluator(kind.group, kind.resource.plural);
      if (evaluator === undefined) continue;
      const names = evaluator.matchingResources(hardNames);
      if (names.length === 0) continue;
      let used = zeroList(names);
      for (const key of present?.get(`${kind.group}/${kind.resource.plural}`) ?? []) {
        const obj = (this.objects.get(key) as Entry).object;
        if (scopes.every((scope) => evaluator.matchesScope(scope, obj)))
          used = addLists(used, evaluator.usage(obj, now));
      }
      usage = addLists(usage, used);
    }
    return maskList(usage, hardNames);
  }

  private async sync(key: string): Promise<typeof retryLater | undefined> {
    const slash = key.indexOf("/");
    const namespace = key.slice(0, slash);
    const name = key.slice(slash + 1);
    const target = { kind: resourceQuotas, namespace, name };
    const quota = await getExisting(this.api, target);
    if (quota === undefined) return undefined;
    const hard = hardOf(quota as JsonObject, "spec");
    const status = (quota.status ?? {}) as { hard?: unknown; used?: unknown };
    const oldUsed = readResourceList(status.used);
    let dirty = !listsEqual(hard, hardOf(quota as JsonObject, "status")) || status.hard == null || status.used == null;
    const hardNames = [...hard.keys()];
    const used = new Map(oldUsed);
    for (const [resourceName, q] of this.calculateUsage(quota as JsonObject, namespace, hardNames))
      used.set(resourceName, q);
    const newUsed = maskList(used, hardNames);
    dirty = dirty || !listsEqual(newUsed, oldUsed);
    if (!dirty) return undefined;
    const updated = { ...quota, status: { hard: writeResourceList(hard), used: writeResourceList(newUsed) } };
    try {
      await this.api.update({ ...target, subresource: "status" }, updated);
    } catch (error) {
      return outcomeOfWriteFailure(error);
    }
    return undefined;
  }
}
