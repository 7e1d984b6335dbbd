// The garbage collector's view of the store: every object by uid with its ownerReferences and deletion
// state, and for each owner uid the uids of its dependents. An owner uid with dependents but no object
// is kube's "virtual" node: an owner not (or no longer) seen, whose dependents must be checked.

import type { OwnerReference } from "../../generated/meta/v1/types.js";
import type { ServedKind } from "../registry/served-kind.js";
import { foregroundFinalizer, orphanFinalizer } from "../resources/delete-object.js";
import type { StoredObject } from "./registry-feed.js";

export interface GraphNode {
  uid: string;
  key: string;
  kind: ServedKind;
  namespace: string | undefined;
  name: string;
  owners: readonly OwnerReference[];
  deleting: boolean;
  finalizers: readonly string[];
}

export function ownerReferencesOf(metadata: unknown): OwnerReference[] {
  const refs = (metadata as { ownerReferences?: unknown } | undefined)?.ownerReferences;
  if (!Array.isArray(refs)) return [];
  return refs.filter(
    (r): r is OwnerReference => typeof r === "object" && r !== null && typeof (r as OwnerReference).uid === "string",
  );
}

export function nodeOf(stored: StoredObject): GraphNode | undefined {
  const meta = stored.object.metadata as Record<string, unknown> | undefined;
  const uid = meta?.uid;
  if (typeof uid !== "string" || uid === "") return undefined;
  const finalizers = Array.isArray(meta?.finalizers) ? (meta.finalizers as unknown[]).map(String) : [];
  return {
    uid,
    key: stored.key,
    kind: stored.kind,
    namespace: stored.namespace,
    name: stored.name,
    owners: ownerReferencesOf(meta),
    deleting: meta?.deletionTimestamp !== undefined,
    finalizers,
  };
}

/** Being deleted in the foreground: waiting for its blocking dependents to go. */
export function deletingDependents(node: GraphNode): boolean {
  return node.deleting && node.finalizers.includes(foregroundFinalizer);
}

/** Being deleted with its dependents orphaned. */
export function orphaningDependents(node: GraphNode): boolean {
  return node.deleting && node.finalizers.includes(orphanFinalizer);
}

export class OwnerGraph {
  private readonly nodes = new Map<string, GraphNode>();
  private readonly byKey = new Map<string, string>();
  private readonly dependentUids = new Map<string, Set<string>>();

  get(uid: string): GraphNode | undefined {
    return this.nodes.get(uid);
  }

  all(): IterableIterator<GraphNode> {
    return this.nodes.values();
  }

  /** The observed dependents of an owner uid. */
  dependentsOf(uid: string): GraphNode[] {
    const uids = this.dependentUids.get(uid);
    if (uids === undefined) return [];
    const found: GraphNode[] = [];
    for (const dep of uids) {
      const node = this.nodes.get(dep);
      if (node !== undefined) found.push(node);
    }
    return found;
  }

  /** Adds or replaces a node; returns the state it replaced (same uid), if any. */
  set(node: GraphNode): GraphNode | undefined {
    const atKey = this.byKey.get(node.key);
    if (atKey !== undefined && atKey !== node.uid) this.removeKey(node.key);
    const previous = this.nodes.get(node.uid);
    if (previous !== undefined) this.unlink(previous);
    this.nodes.set(node.uid, node);
    this.byKey.set(node.key, node.uid);
    for (const owner of node.owners) {
      let deps = this.dependentUids.get(owner.uid);
      if (deps === undefined) {
        deps = new Set();
        this.dependentUids.set(owner.uid, deps);
      }
      deps.add(node.uid);
    }
    return previous;
  }

  /** Removes the node stored at `key`; its dependents keep pointing at its uid. */
  removeKey(key: string): GraphNode | undefined {
    const uid = this.byKey.get(key);
    if (uid === undefined) return undefined;
    const node = this.nodes.get(uid);
    this.byKey.delete(key);
    this.nodes.delete(uid);
    if (node !== undefined) this.unlink(node);
    return node;
  }

  clear(): void {
    this.nodes.clear();
    this.byKey.clear();
    this.dependentUids.clear();
  }

  private unlink(node: GraphNode): void {
    for (const owner of node.owners) {
      const deps = this.dependentUids.get(owner.uid);
      if (deps === undefined) continue;
      deps.delete(node.uid);
      if (deps.size === 0) this.dependentUids.delete(owner.uid);
    }
  }
}
