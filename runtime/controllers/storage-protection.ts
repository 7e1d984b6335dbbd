// What kube's storage protection controllers (PVC, PV, VolumeAttributesClass) share: when an object needs
// its protection finalizer, when it is waiting for the controller to let it go, the writes that add or
// remove the finalizer, and the sync that chooses between them.
import type { KubeObject } from "../object/kube-object.js";
import type { ResourceApi, Target } from "../resources/resource-api.js";
import { getExisting } from "./existing-objects.js";
import { updateWithRetry } from "./update-with-retry.js";

interface ProtectedMeta {
  deletionTimestamp?: string;
  finalizers?: string[];
}

const metaOf = (obj: KubeObject) => (obj.metadata ?? {}) as ProtectedMeta;

/** kube's NeedToAddFinalizer: not being deleted and without the finalizer. */
export function needsFinalizer(obj: KubeObject, finalizer: string): boolean {
  const meta = metaOf(obj);
  return meta.deletionTimestamp === undefined && !(meta.finalizers ?? []).includes(finalizer);
}

/** kube's IsDeletionCandidate: being deleted and held by the finalizer. */
export function isDeletionCandidate(obj: KubeObject, finalizer: string): boolean {
  const meta = metaOf(obj);
  return meta.deletionTimestamp !== undefined && (meta.finalizers ?? []).includes(finalizer);
}

/** Rewrites the object's finalizers while `applies` still holds for the latest object (of `uid`). */
async function rewriteFinalizers(
  api: ResourceApi,
  target: Target,
  uid: string | undefined,
  applies: (obj: KubeObject) => boolean,
  rewrite: (finalizers: string[]) => string[],
): Promise<void> {
  await updateWithRetry(
    api,
    target,
    (obj) => {
      if (!applies(obj)) return false;
      const meta = metaOf(obj);
      obj.metadata = { ...meta, finalizers: rewrite(meta.finalizers ?? []) };
      return true;
    },
    uid,
  );
}

/**
 * One sync of a protected object: a deletion candidate loses the finalizer once `inUse` says nothing
 * holds it any more; an object that needs the finalizer gets it. A missing object is left alone.
 */
export async function syncProtection(
  api: ResourceApi,
  target: Target,
  finalizer: string,
  inUse: (obj: KubeObject) => boolean | Promise<boolean>,
): Promise<undefined> {
  const obj = await getExisting(api, target);
  if (obj === undefined) return undefined;
  const uid = (obj.metadata as { uid?: string }).uid;
  if (isDeletionCandidate(obj, finalizer)) {
    if (await inUse(obj)) return undefined;
    const candidate = (latest: KubeObject) => isDeletionCandidate(latest, finalizer);
    await rewriteFinalizers(api, target, uid, candidate, (finalizers) => finalizers.filter((f) => f !== finalizer));
    return undefined;
  }
  if (!needsFinalizer(obj, finalizer)) return undefined;
  const needs = (latest: KubeObject) => needsFinalizer(latest, finalizer);
  await rewriteFinalizers(api, target, uid, needs, (finalizers) => [...finalizers, finalizer]);
  return undefined;
}
