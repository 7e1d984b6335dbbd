// The RBAC objects the authorizer reads, held in memory as kube's RBAC authorizer holds them in informer
// caches: Roles, ClusterRoles, RoleBindings and ClusterRoleBindings, followed through the ResourceApi.
// Every watch start triggers a consistent relist, so that deletions a restarted watch cannot replay are
// still seen; list items and watch events race, so each object's revision decides which state is newer,
// and a deletion leaves a tombstone until a later list confirms the object is gone.
import { kinds } from "../../../generated/registry.js";
import { Backoff } from "../../controllers/backoff.js";
import type { ControllerContext } from "../../controllers/controller-context.js";
import { followObjects } from "../../controllers/follow-objects.js";
import { byGroupVersionResource, type ServedKind } from "../../registry/lookup.js";
import type { ResourceApi } from "../../resources/resource-api.js";
import type { KubeObject } from "../../strategies/strategy.js";

export const rbacGroup = "rbac.authorization.k8s.io";

function rbacKind(resource: string): ServedKind {
  const kind = byGroupVersionResource(kinds, rbacGroup, "v1", resource);
  if (kind === undefined) throw new Error(`the registry has no ${rbacGroup}/v1 ${resource}`);
  return kind;
}

export const roleKind = rbacKind("roles");
export const clusterRoleKind = rbacKind("clusterroles");
export const roleBindingKind = rbacKind("rolebindings");
export const clusterRoleBindingKind = rbacKind("clusterrolebindings");

interface Entry {
  revision: number;
  /** Absent for a tombstone: the object was deleted at or after `revision`. */
  object?: KubeObject;
}

interface ObjectKey {
  namespace: string;
  name: string;
}

function keyOf(object: KubeObject): ObjectKey & { revision: number } {
  const meta = object.metadata as { namespace?: string; name?: string; resourceVersion?: string };
  return { namespace: meta.namespace ?? "", name: meta.name ?? "", revision: Number(meta.resourceVersion ?? 0) };
}

/** One resource's objects by namespace ("" for cluster-scoped ones) and name. */
export class ObjectTable {
  private readonly entries = new Map<string, Map<string, Entry>>();

  get(namespace: string, name: string): KubeObject | undefined {
    return this.entries.get(namespace)?.get(name)?.object;
  }

  *inNamespace(namespace: string): Iterable<KubeObject> {
    for (const entry of this.entries.get(namespace)?.values() ?? []) if (entry.object !== undefined) yield entry.object;
  }

  put(object: KubeObject): void {
    const { namespace, name, revision } = keyOf(object);
    const entry = this.entry(namespace, name);
    if (entry !== undefined && (entry.revision > revision || (entry.revision === revision && !entry.object))) return;
    this.set(namespace, name, { revision, object });
  }

  remove(object: KubeObject): void {
    const { namespace, name, revision } = keyOf(object);
    const entry = this.entry(namespace, name);
    if (entry !== undefined && entry.revision > revision) return;
    this.set(namespace, name, { revision });
  }

  /** The state of a consistent list at `listRevision`: what it lacks and is not newer is gone. */
  relisted(objects: readonly KubeObject[], listRevision: number): void {
    const listed = new Set<string>();
    for (const object of objects) {
      this.put(object);
      const { namespace, name } = keyOf(object);
      listed.add(`${namespace}/${name}`);
    }
    for (const [namespace, byName] of this.entries) {
      for (const [name, entry] of byName) {
        if (listed.has(`${namespace}/${name}`)) continue;
        if (entry.object === undefined || entry.revision <= listRevision) byName.delete(name);
      }
      if (byName.size === 0) this.entries.delete(namespace);
    }
  }

  private entry(namespace: string, name: string): Entry | undefined {
    return this.entries.get(namespace)?.get(name);
  }

  private set(namespace: string, name: string, entry: Entry): void {
    let byName = this.entries.get(namespace);
    if (byName === undefined) {
      byName = new Map();
      this.entries.set(namespace, byName);
    }
    byName.set(name, entry);
  }
}

export class RbacIndex {
  /** Resolves once the first list of each of the four resources is in; never rejects. */
  readonly ready: Promise<void>;
  private readonly tables = new Map<ServedKind, ObjectTable>();
  /** The resources whose first list is in. */
  private readonly listed = new Set<ServedKind>();
  private markReady = () => {};

  constructor(private readonly api: ResourceApi) {
    for (const kind of [roleKind, clusterRoleKind, roleBindingKind, clusterRoleBindingKind]) {
      this.tables.set(kind, new ObjectTable());
    }
    this.ready = new Promise((resolve) => {
      this.markReady = resolve;
    });
  }

  role(namespace: string, name: string): KubeObject | undefined {
    return this.table(roleKind).get(namespace, name);
  }

  clusterRole(name: string): KubeObject | undefined {
    return this.table(clusterRoleKind).get("", name);
  }

  roleBindings(namespace: string): Iterable<KubeObject> {
    return this.table(roleBindingKind).inNamespace(namespace);
  }

  clusterRoleBindings(): Iterable<KubeObject> {
    return this.table(clusterRoleBindingKind).inNamespace("");
  }

  /** Follows the four resources until `context.signal` aborts. */
  async run(context: ControllerContext): Promise<void> {
    await Promise.all([...this.tables.keys()].map((kind) => this.follow(kind, context)));
  }

  private table(kind: ServedKind): ObjectTable {
    return this.tables.get(kind) as ObjectTable;
  }

  private async follow(kind: ServedKind, context: ControllerContext): Promise<void> {
    const table = this.table(kind);
    // Relists run one after another, so that a later one never sees an older state than an earlier one.
    let relists = Promise.resolve();
    await followObjects(
      this.api,
      { kind },
      (event) => {
        if (event.type === "DELETED") table.remove(event.object);
        else table.put(event.object);
      },
      {
        ...context,
        name: `RBAC ${kind.resource.plural}`,
        onWatch: () => {
          relists = relists.then(() => this.relist(kind, context));
        },
      },
    );
    await relists;
  }

  private async relist(kind: ServedKind, context: ControllerContext): Promise<void> {
    const backoff = new Backoff();
    while (!context.signal.aborted) {
      try {
        const list = await this.api.list({ kind });
        this.table(kind).relisted(
          list.items.map((item) => item.object),
          list.resourceVersion,
        );
        this.listed.add(kind);
        if (this.listed.size === this.tables.size) this.markReady();
        return;
      } catch (error) {
        if (context.signal.aborted) return;
        context.log(`RBAC ${kind.resource.plural}: listing failed`, error);
        await backoff.wait(context.signal);
      }
    }
  }
}
