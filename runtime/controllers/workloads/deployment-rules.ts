// The arithmetic of kube's deployment utilities: surge and unavailability fence posts, the replicas a new
// ReplicaSet gets, proportional scaling shares, revisions, conditions and the completeness checks.
import { formatTime } from "../../resources/timestamps.js";
import type { LabelSelectorObject } from "../../selection/label-selector-object.js";
import type { Condition, Meta } from "./workload-objects.js";

export const revisionAnnotation = "deployment.kubernetes.io/revision";
export const desiredReplicasAnnotation = "deployment.kubernetes.io/desired-replicas";
export const maxReplicasAnnotation = "deployment.kubernetes.io/max-replicas";
const annotationsNotCopied = new Set([
  "kubectl.kubernetes.io/last-applied-configuration",
  revisionAnnotation,
  "deployment.kubernetes.io/revision-history",
  desiredReplicasAnnotation,
  maxReplicasAnnotation,
  "deprecated.deployment.rollback.to",
]);

export interface DeploymentStatus {
  observedGeneration?: number;
  replicas?: number;
  updatedReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  unavailableReplicas?: number;
  terminatingReplicas?: number;
  conditions?: Condition[];
  collisionCount?: number;
}

export interface DeploymentShape {
  metadata?: Meta;
  spec?: {
    replicas?: number;
    selector?: LabelSelectorObject;
    template?: { metadata?: Meta; spec?: Record<string, unknown> };
    strategy?: { type?: string; rollingUpdate?: { maxSurge?: number | string; maxUnavailable?: number | string } };
    minReadySeconds?: number;
    revisionHistoryLimit?: number;
    paused?: boolean;
    progressDeadlineSeconds?: number;
  };
  status?: DeploymentStatus;
}

export interface ReplicaSetShape {
  metadata?: Meta;
  spec?: {
    replicas?: number;
    minReadySeconds?: number;
    selector?: LabelSelectorObject;
    template?: { metadata?: Meta; spec?: Record<string, unknown> };
  };
  status?: {
    replicas?: number;
    readyReplicas?: number;
    availableReplicas?: number;
    terminatingReplicas?: number;
    observedGeneration?: number;
    conditions?: Condition[];
  };
}

const maxInt32 = 2147483647;

export const replicasOf = (d: DeploymentShape): number => d.spec?.replicas ?? 1;
export const rsReplicas = (rs: ReplicaSetShape): number => rs.spec?.replicas ?? 1;

/** kube's GetScaledValueFromIntOrPercent. */
function scaled(value: number | string | undefined, total: number, roundUp: boolean): number {
  if (value === undefined) return 0;
  if (typeof value === "number") return value;
  const percent = Number(value.replace(/%$/, ""));
  const exact = (percent * total) / 100;
  return roundUp ? Math.ceil(exact) : Math.floor(exact);
}

/** kube's ResolveFenceposts: surge rounds up, unavailability down, and both zero means one unavailable. */
export function fenceposts(d: DeploymentShape): { surge: number; unavailable: number } {
  const rolling = d.spec?.strategy?.rollingUpdate;
  const desired = replicasOf(d);
  const surge = scaled(rolling?.maxSurge, desired, true);
  const unavailable = scaled(rolling?.maxUnavailable, desired, false);
  return surge === 0 && unavailable === 0 ? { surge, unavailable: 1 } : { surge, unavailable };
}

const isRolling = (d: DeploymentShape): boolean => d.spec?.strategy?.type !== "Recreate";

export function maxSurge(d: DeploymentShape): number {
  return isRolling(d) ? fenceposts(d).surge : 0;
}

export function maxUnavailable(d: DeploymentShape): number {
  if (!isRolling(d) || replicasOf(d) === 0) return 0;
  return Math.min(fenceposts(d).unavailable, replicasOf(d));
}

/** kube's NewRSNewReplicas. */
export function newReplicaSetReplicas(d: DeploymentShape, all: ReplicaSetShape[], newRs: ReplicaSetShape): number {
  if (!isRolling(d)) return replicasOf(d);
  const current = all.reduce((sum, rs) => sum + rsReplicas(rs), 0);
  const maxTotal = replicasOf(d) + maxSurge(d);
  if (current >= maxTotal) return rsReplicas(newRs);
  const scaleUp = Math.min(maxTotal - current, replicasOf(d) - rsReplicas(newRs));
  return rsReplicas(newRs) + scaleUp;
}

export function revisionOf(obj: { metadata?: Meta }): number {
  const value = Number.parseInt(obj.metadata?.annotations?.[revisionAnnotation] ?? "", 10);
  return Number.isNaN(value) ? 0 : value;
}

/** kube's SetNewReplicaSetAnnotations and SetReplicasAnnotations; true when anything changed. */
export function setReplicaSetAnnotations(d: DeploymentShape, rs: ReplicaSetShape, revision: number): boolean {
  const annotations = annotationsOf(rs);
  let changed = false;
  for (const [key, value] of Object.entries(d.metadata?.annotations ?? {})) {
    if (annotationsNotCopied.has(key) || annotations[key] === value) continue;
    annotations[key] = value;
    changed = true;
  }
  if (revisionOf(rs) < revision) {
    annotations[revisionAnnotation] = String(revision);
    changed = true;
  }
  return setReplicasAnnotations(rs, replicasOf(d), replicasOf(d) + maxSurge(d)) || changed;
}

/** The ReplicaSet's annotations, created empty when it has none. */
function annotationsOf(rs: ReplicaSetShape): Record<string, string> {
  rs.metadata ??= {};
  rs.metadata.annotations ??= {};
  return rs.metadata.annotations;
}

export function setReplicasAnnotations(rs: ReplicaSetShape, desired: number, max: number): boolean {
  const annotations = annotationsOf(rs);
  if (
    annotations[desiredReplicasAnnotation] === String(desired) &&
    annotations[maxReplicasAnnotation] === String(max)
  ) {
    return false;
  }
  annotations[desiredReplicasAnnotation] = String(desired);
  annotations[maxReplicasAnnotation] = String(max);
  return true;
}

/** kube's getReplicaSetFraction and getProportion for proportional scaling. */
export function proportion(d: DeploymentShape, rs: ReplicaSetShape, toAdd: number, added: number): number {
  if (rsReplicas(rs) === 0 || toAdd === 0 || toAdd === added) return 0;
  let fraction: number;
  if (replicasOf(d) === 0) fraction = -rsReplicas(rs);
  else {
    const deploymentReplicas = replicasOf(d) + maxSurge(d);
    const annotated = Number.parseInt(rs.metadata?.annotations?.[maxReplicasAnnotation] ?? "", 10);
    const base = Number.isNaN(annotated) ? (d.status?.replicas ?? 0) : annotated;
    fraction = Math.round((rsReplicas(rs) * deploymentReplicas) / base) - rsReplicas(rs);
  }
  const allowed = toAdd - added;
  return toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed);
}

/** Conditions of a Deployment carry lastUpdateTime as well. */
export function deploymentCondition(
  type: string,
  status: string,
  reason: string,
  message: string,
  now: Date,
): Condition {
  const time = formatTime(now);
  return { type, status, lastUpdateTime: time, lastTransitionTime: time, reason, message };
}

/** kube's SetDeploymentCondition: the same status and reason leave it as is; the same status keeps its transition time. */
export function setDeploymentCondition(status: DeploymentStatus, condition: Condition): void {
  const conditions = status.conditions ?? [];
  const current = conditions.find((c) => c.type === condition.type);
  if (current !== undefined && current.status === condition.status && current.reason === condition.reason) return;
  const next = { ...condition };
  if (current !== undefined && current.status === condition.status) {
    if (current.lastTransitionTime !== undefined) next.lastTransitionTime = current.lastTransitionTime;
  }
  status.conditions = [...conditions.filter((c) => c.type !== condition.type), next];
}

export const hasProgressDeadline = (d: DeploymentShape): boolean =>
  d.spec?.progressDeadlineSeconds !== undefined && d.spec.progressDeadlineSeconds !== maxInt32;

/** kube's DeploymentComplete. */
export function deploymentComplete(d: DeploymentShape, status: DeploymentStatus): boolean {
  const replicas = replicasOf(d);
  return (
    (status.updatedReplicas ?? 0) === replicas &&
    (status.replicas ?? 0) === replicas &&
    (status.availableReplicas ?? 0) === replicas &&
    (status.observedGeneration ?? 0) >= (d.metadata?.generation ?? 0)
  );
}

/** kube's DeploymentProgressing: more updated, ready or available pods, or fewer old ones. */
export function deploymentProgressing(d: DeploymentShape, status: DeploymentStatus): boolean {
  const old = d.status ?? {};
  const oldOld = (old.replicas ?? 0) - (old.updatedReplicas ?? 0);
  const newOld = (status.replicas ?? 0) - (status.updatedReplicas ?? 0);
  return (
    (status.updatedReplicas ?? 0) > (old.updatedReplicas ?? 0) ||
    newOld < oldOld ||
    (status.readyReplicas ?? 0) > (old.readyReplicas ?? 0) ||
    (status.availableReplicas ?? 0) > (old.availableReplicas ?? 0)
  );
}

/** kube's DeploymentTimedOut: the Progressing condition not updated within the deadline. */
export function deploymentTimedOut(d: DeploymentShape, status: DeploymentStatus, now: Date): boolean {
  if (!hasProgressDeadline(d)) return false;
  const condition = (status.conditions ?? []).find((c) => c.type === "Progressing");
  if (condition === undefined || condition.reason === "NewReplicaSetAvailable") return false;
  if (condition.reason === "ProgressDeadlineExceeded") return true;
  const from = Date.parse(condition.lastUpdateTime ?? "");
  return from + (d.spec?.progressDeadlineSeconds ?? 0) * 1000 < now.getTime();
}
