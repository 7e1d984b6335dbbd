// kube's garbage collector: follows every stored object (one feed over the store), keeps the owner graph,
// and acts as kube-controller-manager's does:
// - a dependent whose owners are all verified absent (deleted, or never there: a dangling uid) is deleted,
//   in the background unless its own finalizers ask otherwise; owners verified absent are dropped from
//   a dependent that still has a live owner;
// - an owner deleted in the foreground (deletionTimestamp and the foregroundDeletion finalizer) gets its
//   dependents deleted and loses the finalizer once no dependent with blockOwnerDeletion remains;
// - an owner deleted with the orphan finalizer has its ownerReference removed from every dependent, then
//   loses the finalizer.
// Every decision reads the objects involved again through the ResourceApi first, as kube's GC does a
// live lookup, so a lagging graph never deletes an object whose owner exists.

import type { OwnerReference } from "../../generated/meta/v1/types.js";
import type { KubeObject } from "../object/kube-object.js";
import type { KindRegistry } from "../registry/kind-registry.js";
import type { ServedKind } from "../registry/served-kind.js";
import { foregroundFinalizer, orphanFinalizer, type PropagationPolicy } from "../resources/delete-object.js";
import type { ResourceApi, Target } from "../resources/resource-api.js";
import { outcomeOfWriteFailure, statusCode } from "./api-errors.js";
import type { ControllerContext } from "./controller-context.js";
import { getExisting } from "./existing-objects.js";
import {
  deletingDependents,
  type GraphNode,
  nodeOf,
  OwnerGraph,
  orphaningDependents,
  ownerReferencesOf,
} from "./owner-graph.js";
import { type FeedHandlers, followRegistry, type StoredObject } from "./registry-feed.js";
import { updateWithRetry } from "./update-with-retry.js";
import { type retryLater, WorkQueue } from "./work-queue.js";

type Work = `delete/${string}` | `orphan/${string}`;

/** kube runs 20 GC workers; a few suffice in one process, where every call is local. */
const workers = 4;

interface Classified {
  solid: OwnerReference[];
  dangling: OwnerReference[];
  waiting: OwnerReference[];
}

function targetOf(node: GraphNode): Target {
  return { kind: node.kind, namespace: node.namespace, name: node.name };
}

function metaOf(obj: KubeObject): Record<string, unknown> {
  return (obj.metadata ?? {}) as Record<string, unknown>;
}

function finalizersOf(obj: KubeObject): string[] {
  const finalizers = metaOf(obj).finalizers;
  return Array.isArray(finalizers) ? finalizers.map(String) : [];
}

function groupVersionOf(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf("/");
  return slash < 0
    ? { group: "", version: apiVersion }
    : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

/** The stored kind an ownerReference names, or undefined when this server does not serve it. */
function ownerKind(served: KindRegistry, ref: OwnerReference): ServedKind | undefined {
  const { group, version } = groupVersionOf(ref.apiVersion);
  const record = served.kindOf(group, version, ref.kind);
  if (record === undefined || record.resource.virtual) return undefined;
  return served.storageKindOf(record);
}

/** Removes the finalizer from a copy-on-write object; false when it was not there. */
function dropFinalizer(obj: KubeObject, finalizer: string): boolean {
  const finalizers = finalizersOf(obj);
  if (!finalizers.includes(finalizer)) return false;
  metaOf(obj).finalizers = finalizers.filter((f) => f !== finalizer);
  return true;
}

function dropOwners(obj: KubeObject, uids: ReadonlySet<string>): boolean {
  const refs = ownerReferencesOf(obj.metadata);
  const kept = refs.filter((r) => !uids.has(r.uid));
  if (kept.length === refs.length) return false;
  const meta = metaOf(obj);
  if (kept.length === 0) delete meta.ownerReferences;
  else meta.ownerReferences = kept;
  return true;
}

/** kube's unblockOwnerReferences: no ownerReference of the object blocks its owner's deletion any more. */
function unblockOwners(obj: KubeObject): boolean {
  const refs = ownerReferencesOf(obj.metadata);
  if (!refs.some((r) => r.blockOwnerDeletion === true)) return false;
  metaOf(obj).ownerReferences = refs.map((r) =>
    r.blockOwnerDeletion === true ? { ...r, blockOwnerDeletion: false } : r,
  );
  return true;
}

export class GarbageCollector implements FeedHandlers {
  private readonly graph = new OwnerGraph();
  private readonly queue: WorkQueue<Work>;

  constructor(
    private readonly api: ResourceApi,
    private readonly options: ControllerContext,
  ) {
    this.queue = new WorkQueue((work) => this.process(work), { name: "garbage collector", log: options.log, workers });
  }

  /** Follows the store until the signal aborts, then waits for the work under way. */
  async run(): Promise<void> {
    await followRegistry(this.api.context.store, this.api.kinds, this, this.options);
    await this.queue.stop();
  }

  private enqueueDelete(uid: string): void {
    this.queue.add(`delete/${uid}`);
  }

  reset(objects: StoredObject[]): void {
    this.graph.clear();
    for (const object of objects) {
      const node = nodeOf(object);
      if (node !== undefined) this.graph.set(node);
    }
    for (const node of this.graph.all()) {
      if (orphaningDependents(node)) this.queue.add(`orphan/${node.uid}`);
      if (deletingDependents(node)) this.enqueueDelete(node.uid);
      if (node.owners.some((ref) => this.needsCheck(node, ref))) this.enqueueDelete(node.uid);
    }
  }

  /**
   * The reference must be verified: no object of its uid is known (absent or never there), the one known
   * is not what the reference names (another kind, or a namespaced owner in another namespace: kube treats
   * such a reference as absent), or the owner waits in the foreground for this dependent.
   */
  private needsCheck(dependent: GraphNode, ref: OwnerReference): boolean {
    const owner = this.graph.get(ref.uid);
    if (owner === undefined || deletingDependents(owner)) return true;
    if (owner.kind.kind !== ref.kind || owner.kind.group !== groupVersionOf(ref.apiVersion).group) return true;
    return owner.namespace !== undefined && owner.namespace !== dependent.namespace;
  }

  put(object: StoredObject): void {
    const node = nodeOf(object);
    if (node === undefined) return;
    const previous = this.graph.set(node);
    if (orphaningDependents(node) && !(previous !== undefined && orphaningDependents(previous))) {
      this.queue.add(`orphan/${node.uid}`);
    }
    if (deletingDependents(node) && !(previous !== undefined && deletingDependents(previous))) {
      for (const dep of this.graph.dependentsOf(node.uid)) this.enqueueDelete(dep.uid);
      this.enqueueDelete(node.uid);
    }
    const before = new Map((previous?.owners ?? []).map((ref) => [ref.uid, ref]));
    for (const ref of node.owners) {
      if (!before.has(ref.uid) && this.needsCheck(node, ref)) this.enqueueDelete(node.uid);
    }
    // An owner waiting in the foreground looks again when a dependent stops blocking it.
    const after = new Map(node.owners.map((ref) => [ref.uid, ref]));
    for (const [uid, ref] of before) {
      const now = after.get(uid);
      const unblocked = now === undefined || (ref.blockOwnerDeletion === true && now.blockOwnerDeletion !== true);
      const owner = this.graph.get(uid);
      if (unblocked && owner !== undefined && deletingDependents(owner)) this.enqueueDelete(uid);
    }
  }

  remove(key: string): void {
    const node = this.graph.removeKey(key);
    if (node === undefined) return;
    for (const dep of this.graph.dependentsOf(node.uid)) this.enqueueDelete(dep.uid);
    for (const ref of node.owners) {
      const owner = this.graph.get(ref.uid);
      if (owner !== undefined && deletingDependents(owner)) this.enqueueDelete(owner.uid);
    }
  }

  private process(work: Work): Promise<typeof retryLater | undefined> {
    const slash = work.indexOf("/");
    const uid = work.slice(slash + 1);
    return work.startsWith("orphan/") ? this.orphan(uid) : this.attemptToDelete(uid);
  }

  /** The object as stored now, or undefined when it is gone or another object took its name. */
  private async latest(node: GraphNode): Promise<KubeObject | undefined> {
    const object = await getExisting(this.api, targetOf(node));
    return object !== undefined && metaOf(object).uid === node.uid ? object : undefined;
  }

  private async attemptToDelete(uid: string): Promise<typeof retryLater | undefined> {
    const node = this.graph.get(uid);
    if (node === undefined) return undefined;
    const latest = await this.latest(node);
    if (latest === undefined) return undefined;
    const deleting = metaOf(latest).deletionTimestamp !== undefined;
    if (deleting) {
      if (finalizersOf(latest).includes(foregroundFinalizer)) await this.finishForeground(node);
      return undefined;
    }
    const refs = ownerReferencesOf(latest.metadata);
    if (refs.length === 0) return undefined;
    const { solid, dangling, waiting } = await this.classify(node, refs);
    if (solid.length > 0) {
      if (dangling.length === 0 && waiting.length === 0) return undefined;
      const gone = new Set([...dangling, ...waiting].map((r) => r.uid));
      await updateWithRetry(this.api, targetOf(node), (obj) => dropOwners(obj, gone), uid);
      return undefined;
    }
    if (waiting.length > 0 && this.graph.dependentsOf(uid).length > 0) {
      // Dependents that wait for this object while it waits for its owner: unblock to break a cycle.
      if (this.graph.dependentsOf(uid).some(deletingDependents)) {
        await updateWithRetry(this.api, targetOf(node), unblockOwners, uid);
      }
      return this.deleteObject(node, undefined, "Foreground");
    }
    const finalizers = finalizersOf(latest);
    let policy: PropagationPolicy = "Background";
    if (finalizers.includes(orphanFinalizer)) policy = "Orphan";
    else if (finalizers.includes(foregroundFinalizer)) policy = "Foreground";
    return this.deleteObject(node, String(metaOf(latest).resourceVersion), policy);
  }

  /** A foreground deletion ends when no dependent blocks it; until then its dependents are deleted. */
  private async finishForeground(node: GraphNode): Promise<void> {
    const blocking = this.graph
      .dependentsOf(node.uid)
      .filter((dep) => dep.owners.some((ref) => ref.uid === node.uid && ref.blockOwnerDeletion === true));
    if (blocking.length === 0) {
      await updateWithRetry(this.api, targetOf(node), (obj) => dropFinalizer(obj, foregroundFinalizer), node.uid);
      return;
    }
    for (const dep of blocking) if (!deletingDependents(dep)) this.enqueueDelete(dep.uid);
  }

  private async classify(node: GraphNode, refs: readonly OwnerReference[]): Promise<Classified> {
    const result: Classified = { solid: [], dangling: [], waiting: [] };
    for (const ref of refs) {
      const kind = ownerKind(this.api.kinds, ref);
      const namespaced = kind?.resource.scope === "Namespaced";
      // Unknown owner kinds, and namespaced owners of cluster-scoped objects, cannot be resolved: kube
      // leaves such dependents alone.
      if (kind === undefined || (namespaced && node.namespace === undefined)) {
        result.solid.push(ref);
        continue;
      }
      let owner: KubeObject | undefined;
      try {
        owner = (await this.api.get({ kind, namespace: namespaced ? node.namespace : undefined, name: ref.name }))
          .object;
      } catch (error) {
        if (statusCode(error) !== 404) throw error;
      }
      if (owner === undefined || metaOf(owner).uid !== ref.uid) result.dangling.push(ref);
      else if (metaOf(owner).deletionTimestamp !== undefined && finalizersOf(owner).includes(foregroundFinalizer)) {
        result.waiting.push(ref);
      } else result.solid.push(ref);
    }
    return result;
  }

  private async deleteObject(
    node: GraphNode,
    resourceVersion: string | undefined,
    propagationPolicy: PropagationPolicy,
  ): Promise<typeof retryLater | undefined> {
    try {
      await this.api.delete(targetOf(node), {
        preconditions: { uid: node.uid, ...(resourceVersion === undefined ? {} : { resourceVersion }) },
        propagationPolicy,
      });
    } catch (error) {
      // A conflict: the object changed since it was classified, so it is looked at again.
      return outcomeOfWriteFailure(error);
    }
    return undefined;
  }

  private async orphan(uid: string): Promise<undefined> {
    const node = this.graph.get(uid);
    if (node === undefined) return undefined;
    const latest = await this.latest(node);
    if (latest === undefined || metaOf(latest).deletionTimestamp === undefined) return undefined;
    if (!finalizersOf(latest).includes(orphanFinalizer)) return undefined;
    const owner = new Set([uid]);
    for (const dep of this.graph.dependentsOf(uid)) {
      await updateWithRetry(this.api, targetOf(dep), (obj) => dropOwners(obj, owner), dep.uid);
    }
    await updateWithRetry(this.api, targetOf(node), (obj) => dropFinalizer(obj, orphanFinalizer), uid);
    return undefined;
  }
}
