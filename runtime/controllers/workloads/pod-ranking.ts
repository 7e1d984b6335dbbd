// kube's ActivePodsWithRanks ordering: which of a controller's pods go first when it scales down.
import { isPodReady, metaOf, type PodShape } from "./workload-objects.js";

const phaseOrder: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

function readySince(pod: PodShape): number {
  const ready = (pod.status?.conditions ?? []).find((c) => c.type === "Ready");
  return Date.parse(ready?.lastTransitionTime ?? "") || 0;
}

function restarts(pod: PodShape): number {
  return (pod.status?.containerStatuses ?? []).reduce((sum, s) => sum + (s.restartCount ?? 0), 0);
}

/**
 * The pods in deletion order: unscheduled before scheduled, Pending before Unknown before Running, not
 * ready before ready, more pods of the owner on the same node first, ready more recently first, more
 * restarts first, newer first. `related` are the owner's active pods, counted per node for the rank.
 */
export function inDeletionOrder(candidates: readonly PodShape[], related: readonly PodShape[]): PodShape[] {
  const perNode = new Map<string, number>();
  for (const pod of related) {
    const node = pod.spec?.nodeName ?? "";
    perNode.set(node, (perNode.get(node) ?? 0) + 1);
  }
  const rank = (pod: PodShape) => perNode.get(pod.spec?.nodeName ?? "") ?? 0;
  const compare = (a: PodShape, b: PodShape): number => {
    const assignedA = (a.spec?.nodeName ?? "") !== "";
    const assignedB = (b.spec?.nodeName ?? "") !== "";
    if (assignedA !== assignedB) return assignedA ? 1 : -1;
    const phaseA = phaseOrder[a.status?.phase ?? ""] ?? 0;
    const phaseB = phaseOrder[b.status?.phase ?? ""] ?? 0;
    if (phaseA !== phaseB) return phaseA - phaseB;
    if (isPodReady(a) !== isPodReady(b)) return isPodReady(a) ? 1 : -1;
    if (rank(a) !== rank(b)) return rank(b) - rank(a);
    if (isPodReady(a) && isPodReady(b) && readySince(a) !== readySince(b)) return readySince(b) - readySince(a);
    if (restarts(a) !== restarts(b)) return restarts(b) - restarts(a);
    const createdA = Date.parse(metaOf(a).creationTimestamp ?? "") || 0;
    const createdB = Date.parse(metaOf(b).creationTimestamp ?? "") || 0;
    return createdB - createdA;
  };
  return [...candidates].sort(compare);
}
