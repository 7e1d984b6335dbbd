// A delete: preconditions, then either removal at once or, while finalizers (or a grace period) hold it,
// a deletionTimestamp with the finalizers the propagation policy asks for; the garbage collector and the
// owners of other finalizers finish it later through updates.
import { type AdmissionRequestInfo, admitMutating, admitValidating } from "../admission/admission.js";
import * as fe from "../errors/field-error.js";
import { conflict, forbidden, invalid, notFound } from "../errors/status-error.js";
import type { KubeObject } from "../object/kube-object.js";
import { groupResource, storedAsServed } from "../registry/kinds.js";
import { ConflictError, NotFoundError } from "../storage/storage-errors.js";
import type { KeyValue } from "../storage/store.js";
import type { ApiContext, Target } from "./api-context.js";
import { finalizersOf, objectMeta } from "./object-access.js";
import { decodeStored, encodeStored } from "./resource-storage.js";
import { formatTime } from "./timestamps.js";
import { convertTo } from "./versioned.js";

export type PropagationPolicy = "Orphan" | "Background" | "Foreground";

export interface DeleteOptions {
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
  propagationPolicy?: string;
  orphanDependents?: boolean;
  dryRun?: boolean;
  /** The API request the delete serves, for admission. */
  request?: AdmissionRequestInfo;
}

export interface DeleteResult {
  /** The object as deleted, or as it now waits for its finalizers. */
  object: KubeObject;
  /** False while finalizers or a grace period keep it. */
  deleted: boolean;
}

export const orphanFinalizer = "orphan";
export const foregroundFinalizer = "foregroundDeletion";

const policies = ["Foreground", "Background", "Orphan"];

/** kube's ValidateDeleteOptions, then the policy that applies (undefined: keep the object's finalizers). */
export function deletionPolicy(options: DeleteOptions): PropagationPolicy | undefined {
  const errs: fe.FieldError[] = [];
  if (options.orphanDependents !== undefined && options.propagationPolicy !== undefined) {
    errs.push(
      fe.invalid(
        "propagationPolicy",
        options.propagationPolicy,
        "orphanDependents and deletionPropagation cannot be both set",
      ),
    );
  }
  if (options.propagationPolicy !== undefined && !policies.includes(options.propagationPolicy)) {
    errs.push(fe.notSupported("propagationPolicy", options.propagationPolicy, [...policies, "nil"]));
  }
  if (errs.length > 0) throw invalid({ group: "meta.k8s.io", name: "DeleteOptions" }, "", errs);
  if (options.propagationPolicy !== undefined) return options.propagationPolicy as PropagationPolicy;
  if (options.orphanDependents !== undefined) return options.orphanDependents ? "Orphan" : "Background";
  return undefined;
}

function checkPreconditions(target: Target, obj: KubeObject, options: DeleteOptions): void {
  const meta = objectMeta(obj);
  const name = String(meta.name);
  const uid = options.preconditions?.uid;
  if (uid !== undefined && uid !== meta.uid) {
    throw conflict(
      groupResource(target.kind),
      name,
      `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${String(meta.uid ?? "")}`,
    );
  }
  const rv = options.preconditions?.resourceVersion;
  if (rv !== undefined && rv !== meta.resourceVersion) {
    throw conflict(
      groupResource(target.kind),
      name,
      `Precondition failed: ResourceVersion in precondition: ${rv}, ResourceVersion in meta: ${String(meta.resourceVersion)}`,
    );
  }
}

/** The finalizers after applying the policy: Orphan and Foreground exclude each other, Background drops both. */
function finalizersFor(current: string[], policy: PropagationPolicy | undefined): string[] {
  if (policy === undefined) return current;
  const rest = current.filter((f) => f !== orphanFinalizer && f !== foregroundFinalizer);
  if (policy === "Orphan") return [...rest, orphanFinalizer];
  if (policy === "Foreground") return [...rest, foregroundFinalizer];
  return rest;
}

export async function deleteObject(
  api: ApiContext,
  target: Target,
  options: DeleteOptions = {},
): Promise<DeleteResult> {
  const { kind } = target;
  const name = target.name as string;
  const refused = kind.strategy?.deleteForbidden?.(name);
  if (refused !== undefined) throw forbidden(groupResource(kind), name, refused);
  const key = api.keyOf(target, name);
  const asServed = storedAsServed(kind);
  const explicit = deletionPolicy(options);
  const dryRun = options.dryRun === true;
  const shown = async (obj: KubeObject) => (asServed ? obj : await convertTo(kind, obj, kind.version));
  const request = options.request === undefined ? {} : { request: options.request };
  const base = { operation: "DELETE" as const, kind, namespace: target.namespace, name, subresource: undefined };
  for (;;) {
    const kv = await api.store.get(key);
    if (kv === undefined) throw notFound(groupResource(kind), name);
    const current = decodeStored(kv);
    checkPreconditions(target, current, options);
    const view = await shown(current);
    // As kube's store admits a delete: mutating then validating plugins, both seeing the object as stored.
    const attributes = { ...base, oldObject: view, dryRun, ...request };
    await admitMutating(api.admission, attributes);
    await admitValidating(api.admission, attributes);
    const meta = objectMeta(current);
    const orphanByDefault =
      meta.deletionTimestamp === undefined && kind.strategy?.defaultPropagationPolicy === "Orphan";
    const before = finalizersOf(current);
    const finalizers = finalizersFor(before, explicit ?? (orphanByDefault ? "Orphan" : undefined));
    const grace = kind.strategy?.gracePeriodSeconds?.(view, options.gracePeriodSeconds) ?? 0;
    // A kind that holds deletion (namespaces) is only marked by its first delete.
    const deletionHeld = kind.strategy?.deletionHeld;
    const held = deletionHeld !== undefined && (meta.deletionTimestamp === undefined || deletionHeld(view));
    try {
      if (finalizers.length === 0 && grace === 0 && !held) {
        if (!dryRun) {
          await api.store.delete(key, { expectedModRevision: kv.modRevision });
          await kind.strategy?.release?.(view, api.writeEnvironment(false));
        }
        return { object: view, deleted: true };
      }
      const unchanged = meta.deletionTimestamp !== undefined && finalizers.join("\n") === before.join("\n");
      if (unchanged) return { object: view, deleted: false };
      const marking = meta.deletionTimestamp === undefined;
      if (marking) {
        meta.deletionTimestamp = formatTime(new Date(api.now().getTime() + grace * 1000));
        meta.deletionGracePeriodSeconds = grace;
      }
      if (finalizers.length > 0) meta.finalizers = finalizers;
      else delete meta.finalizers;
      if (marking) kind.strategy?.prepareForDelete?.(current);
      if (dryRun) return { object: await shown(current), deleted: false };
      const written = await api.store.update(key, encodeStored(current), kv.modRevision);
      return { object: await shown(decodeStored(written)), deleted: false };
    } catch (error) {
      if (error instanceof NotFoundError) throw notFound(groupResource(kind), name);
      if (!(error instanceof ConflictError)) throw error;
    }
  }
}

/** After an update left a deleting object without finalizers (and no grace period), it goes; true when it went. */
export async function deleteIfFinalized(api: ApiContext, key: string, kv: KeyValue): Promise<boolean> {
  const meta = objectMeta(decodeStored(kv));
  if (Number(meta.deletionGracePeriodSeconds ?? 0) !== 0) return false;
  try {
    await api.store.delete(key, { expectedModRevision: kv.modRevision });
    return true;
  } catch (error) {
    if (!(error instanceof NotFoundError) && !(error instanceof ConflictError)) throw error;
    return false;
  }
}
