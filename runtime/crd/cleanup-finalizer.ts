// A CustomResourceDefinition's first delete only marks it: it takes the cleanup finalizer and a Terminating
// condition, and goes once the controller has deleted every custom resource and dropped the finalizer.
import type {
  CustomResourceDefinition,
  CustomResourceDefinitionCondition,
} from "../../generated/apiextensions.k8s.io/v1/types.js";
import type { KubeObject } from "../object/kube-object.js";
import { formatTime } from "../resources/timestamps.js";

export const cleanupFinalizer = "customresourcecleanup.apiextensions.k8s.io";

/** Sets a condition in place, keeping its transition time while its status stays; false when nothing changed. */
export function setCondition(
  crd: CustomResourceDefinition,
  condition: CustomResourceDefinitionCondition,
  now: string,
): boolean {
  crd.status ??= {};
  crd.status.conditions ??= [];
  const conditions = crd.status.conditions;
  const i = conditions.findIndex((c) => c.type === condition.type);
  const old = conditions[i];
  if (old?.status === condition.status && old.reason === condition.reason && old.message === condition.message) {
    return false;
  }
  const since = old?.status === condition.status ? old.lastTransitionTime : undefined;
  const next = { ...condition, lastTransitionTime: since ?? now };
  if (old === undefined) conditions.push(next);
  else conditions[i] = next;
  return true;
}

/** The first delete of a definition: kube's REST storage adds the finalizer and says deletion is pending. */
export function markForCleanup(obj: KubeObject): void {
  const crd = obj as unknown as CustomResourceDefinition;
  crd.metadata ??= {};
  const meta = crd.metadata;
  const finalizers = meta.finalizers ?? [];
  if (!finalizers.includes(cleanupFinalizer)) meta.finalizers = [...finalizers, cleanupFinalizer];
  setCondition(
    crd,
    {
      type: "Terminating",
      status: "True",
      reason: "InstanceDeletionPending",
      message: "CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon",
    },
    formatTime(new Date()),
  );
}

/** A deleting definition stays while the finalizer is there. */
export function cleanupPending(obj: KubeObject): boolean {
  return ((obj.metadata as { finalizers?: string[] } | undefined)?.finalizers ?? []).includes(cleanupFinalizer);
}
