// kube's node authorizer graph: vertices for the objects a node may reach, edges pointing towards nodes.
// A pod bound to a node gives pod → node, and secret, configmap, pvc, resourceclaim and service account
// → pod, each labelled with that node (a destination) so that a walk for one node never crosses another
// node's pods; a PV gives pv → pvc and secret → pv (unlabelled: the claim's pod is not known there); a
// VolumeAttachment or a node-local ResourceSlice gives an edge straight to its node. Re-adding an object
// replaces its edges; removing one also removes the neighbours left without edges.
import {
  persistentVolumeSecrets,
  podClaimNames,
  podConfigMapNames,
  podResourceClaimNames,
  podSecretNames,
} from "./object-references.js";

export type VertexType =
  | "configmap"
  | "node"
  | "pod"
  | "pvc"
  | "pv"
  | "resourceclaim"
  | "resourceslice"
  | "secret"
  | "serviceaccount"
  | "volumeattachment";

interface Vertex {
  readonly key: string;
  /** Neighbour → the node the edge leads to (undefined for unlabelled edges). */
  readonly out: Map<Vertex, string | undefined>;
  readonly in: Set<Vertex>;
}

type Json = Record<string, unknown>;

const mirrorPodAnnotation = "kubernetes.io/config.mirror";

function keyOf(type: VertexType, namespace: string, name: string): string {
  return `${type}\u0000${namespace}\u0000${name}`;
}

function meta(object: Json): { name: string; namespace: string; annotations: Record<string, unknown> } {
  const m = (object.metadata ?? {}) as Json;
  return {
    name: String(m.name ?? ""),
    namespace: String(m.namespace ?? ""),
    annotations: (m.annotations ?? {}) as Record<string, unknown>,
  };
}

export class NodeGraph {
  private readonly vertices = new Map<string, Vertex>();

  /** Pods not yet bound to a node relate to nothing and are left out (as a deletion). */
  addPod(pod: Json): void {
    const { name, namespace, annotations } = meta(pod);
    const spec = (pod.spec ?? {}) as Json;
    const nodeName = typeof spec.nodeName === "string" ? spec.nodeName : "";
    this.deleteVertex("pod", namespace, name);
    if (nodeName === "") return;
    const podVertex = this.vertex("pod", namespace, name);
    const nodeVertex = this.vertex("node", "", nodeName);
    this.addEdge(podVertex, nodeVertex, nodeName);
    // A node can create mirror pods; they must never grant it anything more.
    if (Object.hasOwn(annotations, mirrorPodAnnotation)) return;
    const to = (type: VertexType, names: readonly string[]) => {
      for (const n of names) this.addEdge(this.vertex(type, namespace, n), podVertex, nodeName);
    };
    const serviceAccount = typeof spec.serviceAccountName === "string" ? spec.serviceAccountName : "";
    to("serviceaccount", serviceAccount === "" ? [] : [serviceAccount]);
    to("secret", podSecretNames(pod));
    to("configmap", podConfigMapNames(pod));
    to("pvc", podClaimNames(pod));
    to("resourceclaim", podResourceClaimNames(pod));
  }

  deletePod(namespace: string, name: string): void {
    this.deleteVertex("pod", namespace, name);
  }

  addPersistentVolume(pv: Json): void {
    const { name } = meta(pv);
    this.deleteVertex("pv", "", name);
    const claimRef = ((pv.spec ?? {}) as Json).claimRef as Json | undefined;
    if (claimRef === undefined || claimRef === null) return;
    const pvVertex = this.vertex("pv", "", name);
    this.addEdge(pvVertex, this.vertex("pvc", String(claimRef.namespace ?? ""), String(claimRef.name ?? "")));
    for (const secret of persistentVolumeSecrets(pv)) {
      if (secret.kubeletVisible) this.addEdge(this.vertex("secret", secret.namespace, secret.name), pvVertex);
    }
  }

  deletePersistentVolume(name: string): void {
    this.deleteVertex("pv", "", name);
  }

  /** VolumeAttachments and ResourceSlices: an edge to the node they name, if any. */
  addNodeLocal(type: "volumeattachment" | "resourceslice", name: string, nodeName: string): void {
    this.deleteVertex(type, "", name);
    if (nodeName === "") return;
    this.addEdge(this.vertex(type, "", name), this.vertex("node", "", nodeName), nodeName);
  }

  deleteNodeLocal(type: "volumeattachment" | "resourceslice", name: string): void {
    this.deleteVertex(type, "", name);
  }

  /** Whether a path leads from the object to the node without passing through another node's edges. */
  hasPathFrom(nodeName: string, type: VertexType, namespace: string, name: string): boolean {
    const node = this.vertices.get(keyOf("node", "", nodeName));
    const start = this.vertices.get(keyOf(type, namespace, name));
    if (node === undefined || start === undefined) return false;
    const seen = new Set<Vertex>([start]);
    const stack = [start];
    while (stack.length > 0) {
      const v = stack.pop() as Vertex;
      for (const [next, destination] of v.out) {
        if (destination !== undefined && destination !== nodeName) continue;
        if (next === node) return true;
        if (!seen.has(next)) {
          seen.add(next);
          stack.push(next);
        }
      }
    }
    return false;
  }

  /** How many vertices the graph holds (for tests and diagnostics). */
  get size(): number {
    return this.vertices.size;
  }

  private vertex(type: VertexType, namespace: string, name: string): Vertex {
    const key = keyOf(type, namespace, name);
    let v = this.vertices.get(key);
    if (v === undefined) {
      v = { key, out: new Map(), in: new Set() };
      this.vertices.set(key, v);
    }
    return v;
  }

  private addEdge(from: Vertex, to: Vertex, destination?: string): void {
    from.out.set(to, destination);
    to.in.add(from);
  }

  private degree(v: Vertex): number {
    return v.out.size + v.in.size;
  }

  private deleteVertex(type: VertexType, namespace: string, name: string): void {
    const v = this.vertices.get(keyOf(type, namespace, name));
    if (v === undefined) return;
    const neighbours = [...v.out.keys(), ...v.in];
    for (const next of v.out.keys()) next.in.delete(v);
    for (const prev of v.in) prev.out.delete(v);
    this.vertices.delete(v.key);
    for (const n of neighbours) if (this.degree(n) === 0) this.vertices.delete(n.key);
  }
}
