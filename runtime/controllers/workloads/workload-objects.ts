// The shapes the workload controllers read and write, and the pod predicates kube's controller utilities
// apply to them (active, ready, available, terminating).
import type { OwnerReference } from "../../../generated/meta/v1/types.js";
import type { KubeObject } from "../../object/kube-object.js";
import type { LabelSelector } from "../../selection/label-selector.js";
import { type LabelSelectorObject, labelSelectorFromObject } from "../../selection/label-selector-object.js";

export interface Meta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string | null;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  ownerReferences?: OwnerReference[];
}

export interface Condition {
  type: string;
  status: string;
  lastProbeTime?: string | null;
  lastUpdateTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface PodTemplate {
  metadata?: Meta;
  spec?: Record<string, unknown>;
}

export interface PodShape {
  metadata?: Meta;
  spec?: { nodeName?: string; [field: string]: unknown };
  status?: { phase?: string; conditions?: Condition[]; containerStatuses?: { restartCount?: number }[] };
}

export const metaOf = (obj: { metadata?: Meta } | KubeObject): Meta => (obj.metadata ?? {}) as Meta;
export const keyOf = (obj: { metadata?: Meta } | KubeObject): string => `${metaOf(obj).namespace}/${metaOf(obj).name}`;
export const isDeleting = (obj: { metadata?: Meta } | KubeObject): boolean =>
  (metaOf(obj).deletionTimestamp ?? null) !== null;

export function splitKey(key: string): { namespace: string; name: string } {
  const slash = key.indexOf("/");
  return { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}

/** The owner reference marked controller, if any. */
export function controllerRefOf(obj: { metadata?: Meta } | KubeObject): OwnerReference | undefined {
  return metaOf(obj).ownerReferences?.find((ref) => ref.controller === true);
}

/** kube's IsPodActive: not finished and not being deleted. */
export function isPodActive(pod: PodShape): boolean {
  const phase = pod.status?.phase;
  return phase !== "Succeeded" && phase !== "Failed" && !isDeleting(pod);
}

/** kube's IsPodTerminating: being deleted and not finished. */
export function isPodTerminating(pod: PodShape): boolean {
  const phase = pod.status?.phase;
  return phase !== "Succeeded" && phase !== "Failed" && isDeleting(pod);
}

function readyCondition(pod: PodShape): Condition | undefined {
  return (pod.status?.conditions ?? []).find((c) => c.type === "Ready");
}

/** kube's IsPodReady. */
export function isPodReady(pod: PodShape): boolean {
  return readyCondition(pod)?.status === "True";
}

/** kube's IsPodAvailable: ready for at least minReadySeconds. */
export function isPodAvailable(pod: PodShape, minReadySeconds: number, now: Date): boolean {
  if (!isPodReady(pod)) return false;
  if (minReadySeconds === 0) return true;
  const since = Date.parse(readyCondition(pod)?.lastTransitionTime ?? "");
  return !Number.isNaN(since) && since + minReadySeconds * 1000 <= now.getTime();
}

/** A metav1.LabelSelector as a matcher; an invalid one matches nothing. */
export function selectorOf(selector: LabelSelectorObject | null | undefined): LabelSelector | undefined {
  const parsed = labelSelectorFromObject(selector);
  return parsed.ok ? parsed.selector : undefined;
}

/** kube's SetCondition for the workload conditions: replaces the condition of the same type. */
export function withCondition(conditions: readonly Condition[], condition: Condition): Condition[] {
  return [...conditions.filter((c) => c.type !== condition.type), condition];
}

/** Deep equality of JSON values, keys in any order. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => jsonEqual(v, b[i]));
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left).filter((k) => left[k] !== undefined);
  const rightKeys = Object.keys(right).filter((k) => right[k] !== undefined);
  return keys.length === rightKeys.length && keys.every((k) => jsonEqual(left[k], right[k]));
}
