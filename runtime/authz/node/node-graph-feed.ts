// Keeps a NodeGraph current from the objects in the server, as kube's graph populator does from its
// informers: pods, PersistentVolumes, VolumeAttachments and ResourceSlices are followed; each event
// replaces the object's edges. Every time a watch starts, the kind is listed once more to drop objects
// whose deletion the watch never showed (objects an event has touched since are left to the events, which
// are newer); `ready` settles when every kind's first list is in the graph.
import type { ControllerContext } from "../../controllers/controller-context.js";
import { followObjects } from "../../controllers/follow-objects.js";
import { watchLoopBackoff } from "../../controllers/watch-loop-backoff.js";
import type { KubeObject } from "../../object/kube-object.js";
import type { ServedKind } from "../../registry/served-kind.js";
import type { ResourceApi } from "../../resources/resource-api.js";
import type { NodeGraph } from "./node-graph.js";

interface ObjectName {
  namespace: string;
  name: string;
}

interface FedKind {
  group: string;
  resource: string;
  add(graph: NodeGraph, object: KubeObject): void;
  remove(graph: NodeGraph, at: ObjectName): void;
}

function nodeNameOf(object: KubeObject): string {
  const nodeName = (object.spec as { nodeName?: unknown } | undefined)?.nodeName;
  return typeof nodeName === "string" ? nodeName : "";
}

const fedKinds: readonly FedKind[] = [
  {
    group: "",
    resource: "pods",
    add: (graph, pod) => graph.addPod(pod),
    remove: (graph, at) => graph.deletePod(at.namespace, at.name),
  },
  {
    group: "",
    resource: "persistentvolumes",
    add: (graph, pv) => graph.addPersistentVolume(pv),
    remove: (graph, at) => graph.deletePersistentVolume(at.name),
  },
  {
    group: "storage.k8s.io",
    resource: "volumeattachments",
    add: (graph, va) => graph.addNodeLocal("volumeattachment", nameOf(va).name, nodeNameOf(va)),
    remove: (graph, at) => graph.deleteNodeLocal("volumeattachment", at.name),
  },
  {
    group: "resource.k8s.io",
    resource: "resourceslices",
    add: (graph, slice) => graph.addNodeLocal("resourceslice", nameOf(slice).name, nodeNameOf(slice)),
    remove: (graph, at) => graph.deleteNodeLocal("resourceslice", at.name),
  },
];

function nameOf(object: KubeObject): ObjectName {
  const meta = (object.metadata ?? {}) as { name?: string; namespace?: string };
  return { namespace: meta.namespace ?? "", name: meta.name ?? "" };
}

function keyOf(at: ObjectName): string {
  return `${at.namespace}/${at.name}`;
}

/** One followed kind: which objects the graph holds, and which keys events touched while a list ran. */
class KindFeed {
  private readonly known = new Map<string, ObjectName>();
  /** One set per resync in progress: the keys events touched since its watch began. */
  private readonly touching = new Set<Set<string>>();
  private markSynced: () => void = () => undefined;
  /** Settles after the first successful list, or when the signal aborts. */
  readonly synced = new Promise<void>((resolve) => {
    this.markSynced = resolve;
  });

  constructor(
    private readonly api: ResourceApi,
    private readonly graph: NodeGraph,
    private readonly served: ServedKind,
    private readonly fed: FedKind,
    private readonly context: ControllerContext,
  ) {
    context.signal.addEventListener("abort", () => this.markSynced(), { once: true });
  }

  onEvent(type: "ADDED" | "MODIFIED" | "DELETED", object: KubeObject): void {
    const at = nameOf(object);
    const key = keyOf(at);
    for (const touched of this.touching) touched.add(key);
    if (type === "DELETED") {
      this.fed.remove(this.graph, at);
      this.known.delete(key);
    } else {
      this.fed.add(this.graph, object);
      this.known.set(key, at);
    }
  }

  /** Lists the kind until it succeeds (or the signal aborts) and reconciles the graph with it. */
  async resync(): Promise<void> {
    const touched = new Set<string>();
    this.touching.add(touched);
    try {
      await this.listInto(touched);
    } finally {
      this.touching.delete(touched);
    }
  }

  private async listInto(touched: Set<string>): Promise<void> {
    const backoff = watchLoopBackoff();
    while (!this.context.signal.aborted) {
      try {
        const { items } = await this.api.list({ kind: this.served });
        const listed = new Set<string>();
        for (const { object } of items) {
          const at = nameOf(object);
          const key = keyOf(at);
          listed.add(key);
          if (touched.has(key)) continue;
          this.fed.add(this.graph, object);
          this.known.set(key, at);
        }
        for (const [key, at] of this.known) {
          if (listed.has(key) || touched.has(key)) continue;
          this.fed.remove(this.graph, at);
          this.known.delete(key);
        }
        this.markSynced();
        return;
      } catch (error) {
        if (this.context.signal.aborted) return;
        this.context.log(`node authorizer graph: listing ${this.fed.resource} failed`, error);
        await backoff.wait(this.context.signal);
      }
    }
  }
}

export interface NodeGraphFeed {
  /** Settles when every followed kind has been listed into the graph (or the signal aborted). */
  readonly ready: Promise<void>;
  /** Settles when the signal aborts and the watches have stopped. */
  readonly done: Promise<void>;
}

export function feedNodeGraph(api: ResourceApi, graph: NodeGraph, context: ControllerContext): NodeGraphFeed {
  const synced: Promise<void>[] = [];
  const follows: Promise<void>[] = [];
  for (const fed of fedKinds) {
    const served = api.kinds.servedKind(fed.group, "v1", fed.resource);
    if (served === undefined) continue;
    const feed = new KindFeed(api, graph, served, fed, context);
    synced.push(feed.synced);
    follows.push(
      followObjects(api, { kind: served }, (event) => feed.onEvent(event.type, event.object), {
        ...context,
        name: "node authorizer graph",
        onWatch: () => void feed.resync(),
      }),
    );
  }
  return { ready: Promise.all(synced).then(() => undefined), done: Promise.all(follows).then(() => undefined) };
}
