// The RBAC objects the authorizer reads, held in memory as kube's RBAC authorizer holds them in informer
// caches: Roles, ClusterRoles, RoleBindings and ClusterRoleBindings, followed through the ResourceApi.
// Every watch start triggers a consistent relist, so that deletions a restarted watch cannot replay are
// still seen; list items and watch events race, so each object's revision decides which state is newer,
// and a deletion leaves a tombstone until a later list confirms the object is gone.
import { kinds } from "../../../generated/registry.js";
import type { ControllerContext } from "../../controllers/controller-context.js";
import { followObjects } from "../../controllers/follow-objects.js";
import { watchLoopBackoff } from "../../controllers/watch-loop-backoff.js";
import type { KubeObject } from "../../object/kube-object.js";
import { kindReference } from "../../registry/kinds.js";
import { byGroupVersionResource } from "../../registry/lookup.js";
import type { ServedKind } from "../../registry/served-kind.js";
import type { ResourceApi } from "../../resources/resource-api.js";

export const rbacGroup = "rbac.authorization.k8s.io";

function rbacKind(resource: string): ServedKind {
  const kind = byGroupVersionResource(kinds, rbacGroup, "v1", resource);
  if (kind === undefined) throw new Error(`the registry has no ${rbacGroup}/v1 ${resource}`);
  return kindReference(kind);
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
  /** The latest revision an event or a list brought: every write of the resource up to it is in. */
  seenRevision = 0;

  get(namespace: string, name: string): KubeObject | undefined {
    return this.entries.get(namespace)?.get(name)?.object;
  }

  *inNamespace(namespace: string): Iterable<KubeObject> {
    for (const entry of this.entries.get(namespace)?.values() ?? []) if (entry.object !== undefined) yield entry.object;
  }

  put(object: KubeObject): void {
    const { namespace, name, revision } = keyOf(object);
    this.seenRevision = Math.max(this.seenRevision, revision);
    const entry = this.entry(namespace, name);
    if (entry !== undefined && (entry.revision > revision || (entry.revision === revision && !entry.object))) return;
    this.set(namespace, name, { revision, object });
  }

  remove(object: KubeObject): void {
    const { namespace, name, revision } = keyOf(object);
    this.seenRevision = Math.max(this.seenRevision, revision);
    const entry = this.entry(namespace, name);
    if (entry !== undefined && entry.revision > revision) return;
    this.set(namespace, name, { revision });
  }

  /** The state of a consistent list at `listRevision`: what it lacks and is not newer is gone. */
  relisted(objects: readonly KubeObject[], listRevision: number): void {
    this.seenRevision = Math.max(this.seenRevision, listRevision);
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
  /** Each resource's relists, run one after another, so that a later one never sees an older state. */
  private readonly relists = new Map<ServedKind, Promise<void>>();
  private context: ControllerContext | undefined;
  /** Called whenever a table changes, for `synced`. */
  private readonly changed = new Set<() => void>();
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
    this.context = context;
    context.signal.addEventListener("abort", () => this.wake(), { once: true });
    await Promise.all([...this.tables.keys()].map((kind) => this.follow(kind, context)));
  }

  /**
   * Resolves once the tables hold objects written just before (the default policy at start), so that they
   * authorize at once rather than when their watch events arrive: the resources `written` names once their
   * events reach the revision given (cheap), the others through a consistent list each. Resolves too when
   * the index stops.
   */
  async synced(written?: ReadonlyMap<ServedKind, number>): Promise<void> {
    const context = this.context;
    if (context === undefined) return;
    await Promise.all(
      [...this.tables.keys()].map(async (kind) => {
        const revision = written?.get(kind);
        if (revision === undefined) return this.queueRelist(kind, context);
        while (this.table(kind).seenRevision < revision && !context.signal.aborted) {
          await new Promise<void>((resolve) => this.changed.add(resolve));
        }
      }),
    );
  }

  private wake(): void {
    for (const resolve of this.changed) resolve();
    this.changed.clear();
  }

  private table(kind: ServedKind): ObjectTable {
    return this.tables.get(kind) as ObjectTable;
  }

  private queueRelist(kind: ServedKind, context: ControllerContext): Promise<void> {
    const next = (this.relists.get(kind) ?? Promise.resolve()).then(() => this.relist(kind, context));
    this.relists.set(kind, next);
    return next;
  }

  private async follow(kind: ServedKind, context: ControllerContext): Promise<void> {
    const table = this.table(kind);
    await followObjects(
      this.api,
      { kind },
      (event) => {
        if (event.type === "DELETED") table.remove(event.object);
        else table.put(event.object);
        this.wake();
      },
      {
        ...context,
        name: `RBAC ${kind.resource.plural}`,
        onWatch: () => {
          void this.queueRelist(kind, context);
        },
      },
    );
    await this.relists.get(kind);
  }

  private async relist(kind: ServedKind, context: ControllerContext): Promise<void> {
    const backoff = watchLoopBackoff();
    while (!context.signal.aborted) {
      try {
        const list = await this.api.list({ kind });
        this.table(kind).relisted(
          list.items.map((item) => item.object),
          list.resourceVersion,
        );
        this.wake();
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
