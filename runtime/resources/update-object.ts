// An update (PUT) of the main resource or its status: read the stored object, check the client's
// resourceVersion, carry over what a client cannot change, prepare, validate, admit, and write guarded by
// the revision read. An unconditional update retries when another write lands in between; a write that
// changes nothing is not stored and keeps the resourceVersion, as kube skips identical bytes.
import { isDeepStrictEqual } from "node:util";
import { type AdmissionAttributes, admitMutating, admitValidating } from "../admission/admission.js";
import * as fe from "../errors/field-error.js";
import { badRequest, conflict, invalid, notFound } from "../errors/status-error.js";
import type { KubeObject } from "../object/kube-object.js";
import { groupResource, hasStatus, storedAsServed, tracksGeneration } from "../registry/kinds.js";
import { ConflictError, NotFoundError } from "../storage/storage-errors.js";
import type { ApiContext, Target } from "./api-context.js";
import { createObject, type WriteOptions, withOwnership } from "./create-object.js";
import { deleteIfFinalized } from "./delete-object.js";
import { finalizersOf, objectMeta } from "./object-access.js";
import { decodeStored, encodeStored } from "./resource-storage.js";
import { checkNamespace, checkTypeMeta } from "./type-meta.js";
import { defaultObject, validateObject } from "./validate-object.js";
import { convertTo, toStorage } from "./versioned.js";
import { settleClaims } from "./write-claims.js";

export const modifiedCause =
  "the object has been modified; please apply your changes to the latest version and try again";

export interface UpdateResult {
  object: KubeObject;
  created: boolean;
}

/** Everything but metadata and status differs: the kind's generation moves on. */
function specChanged(obj: KubeObject, old: KubeObject): boolean {
  const { metadata: _m, status: _s, ...a } = obj;
  const { metadata: _om, status: _os, ...b } = old;
  return !isDeepStrictEqual(a, b);
}

const beyondSpec = new Set(["apiVersion", "kind", "metadata", "status"]);

/**
 * A status write keeps the stored spec (every top-level field but metadata and status) and labels, as
 * kube's status strategies do; its other metadata changes go through.
 */
function keepSpec(obj: KubeObject, old: KubeObject): void {
  for (const key of Object.keys(obj)) if (!beyondSpec.has(key)) delete obj[key];
  for (const [key, value] of Object.entries(old)) if (!beyondSpec.has(key)) obj[key] = structuredClone(value);
  const labels = objectMeta(old).labels;
  if (labels === undefined) delete objectMeta(obj).labels;
  else objectMeta(obj).labels = structuredClone(labels);
}

/** What an update keeps from the stored object whatever the client sends (kube's BeforeUpdate). */
function prepareUpdate(target: Target, obj: KubeObject, old: KubeObject): void {
  const { subresource } = target;
  const writesStatus =
    subresource === "status" ||
    (subresource !== undefined && target.kind.strategy?.statusSubresources?.includes(subresource) === true);
  if (writesStatus) keepSpec(obj, old);
  else if (hasStatus(target.kind)) {
    if (old.status === undefined) delete obj.status;
    else obj.status = structuredClone(old.status);
  }
  const meta = objectMeta(obj);
  const oldMeta = objectMeta(old);
  if (meta.uid === undefined || meta.uid === "") meta.uid = oldMeta.uid;
  for (const field of ["creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds", "generation"]) {
    if (oldMeta[field] === undefined) delete meta[field];
    else meta[field] = oldMeta[field];
  }
  if (tracksGeneration(target.kind) && specChanged(obj, old)) meta.generation = Number(oldMeta.generation ?? 0) + 1;
}

/** Equal but for the resourceVersion, which is not part of what is stored. */
function sameStoredState(a: KubeObject, b: KubeObject): boolean {
  const { resourceVersion: _a, ...metaA } = objectMeta(a);
  const { resourceVersion: _b, ...metaB } = objectMeta(b);
  return isDeepStrictEqual({ ...a, metadata: metaA }, { ...b, metadata: metaB });
}

function checkName(obj: KubeObject, name: string): void {
  const meta = objectMeta(obj);
  if (meta.name === undefined || meta.name === "") meta.name = name;
  else if (meta.name !== name) {
    throw badRequest(`the name of the object (${String(meta.name)}) does not match the name on the URL (${name})`);
  }
}

export async function updateObject(
  api: ApiContext,
  target: Target,
  body: KubeObject,
  options: WriteOptions = {},
): Promise<UpdateResult> {
  const { kind } = target;
  const name = target.name as string;
  checkTypeMeta(body, kind);
  checkName(body, name);
  checkNamespace(body, kind, target.namespace);
  const requested = objectMeta(body).resourceVersion;
  const precondition = typeof requested === "string" && requested !== "" ? requested : undefined;
  const key = api.keyOf(target, name);
  const asServed = storedAsServed(kind);
  const dryRun = options.dryRun === true;
  for (;;) {
    const kv = await api.store.get(key);
    if (kv === undefined) {
      if (target.subresource !== undefined || kind.strategy?.allowCreateOnUpdate !== true) {
        throw notFound(groupResource(kind), name);
      }
      // kube's create-on-update ignores the body's resourceVersion: the object is created as it is.
      const created = structuredClone(body);
      delete objectMeta(created).resourceVersion;
      return { object: await createObject(api, target, created, options), created: true };
    }
    // Only an update of an existing object needs a resourceVersion where the kind asks for one.
    if (precondition === undefined && kind.strategy?.allowUnconditionalUpdate === false) {
      // kube names the resource here, not the kind as its validation errors do.
      throw invalid(groupResource(kind), name, [
        fe.invalid("metadata.resourceVersion", 0, "must be specified for an update"),
      ]);
    }
    if (precondition !== undefined && precondition !== String(kv.modRevision)) {
      throw conflict(groupResource(kind), name, modifiedCause);
    }
    const current = decodeStored(kv);
    const old = asServed ? current : await convertTo(kind, current, kind.version);
    const defaulted = structuredClone(body);
    defaultObject(kind, defaulted);
    const attributes: AdmissionAttributes = {
      operation: "UPDATE",
      kind,
      namespace: target.namespace,
      name,
      subresource: target.subresource,
      object: withOwnership(api, target, old, defaulted, options),
      oldObject: old,
      dryRun,
      ...(options.request === undefined ? {} : { request: options.request }),
    };
    await admitMutating(api.admission, attributes);
    // Mutating plugins may have replaced the object (a webhook's patch).
    const obj = attributes.object as KubeObject;
    prepareUpdate(target, obj, old);
    kind.strategy?.prepareForUpdate?.(obj, old, target.subresource);
    const claim = target.subresource === undefined ? kind.strategy?.claim : undefined;
    const claims = await claim?.(obj, old, api.writeEnvironment(dryRun));
    const result = await settleClaims(claims, async (): Promise<UpdateResult | undefined> => {
      validateObject(kind, api.writeEnvironment(dryRun), obj, old, target.subresource);
      await admitValidating(api.admission, attributes);

      const atStorage = asServed ? obj : await toStorage(kind, obj);
      if (sameStoredState(atStorage, current)) return { object: old, created: false };
      if (dryRun) return { object: obj, created: false };
      try {
        const written = await api.store.update(key, encodeStored(atStorage), kv.modRevision);
        const updated = decodeStored(written);
        const deleting = objectMeta(updated).deletionTimestamp !== undefined && finalizersOf(updated).length === 0;
        const shown = asServed ? updated : await convertTo(kind, updated, kind.version);
        if (deleting && kind.strategy?.deletionHeld?.(updated) !== true) {
          if (await deleteIfFinalized(api, key, written))
            await kind.strategy?.release?.(shown, api.writeEnvironment(false));
        }
        return { object: shown, created: false };
      } catch (error) {
        if (error instanceof NotFoundError) throw retryWrite;
        if (!(error instanceof ConflictError)) throw error;
        if (precondition !== undefined) throw conflict(groupResource(kind), name, modifiedCause);
        throw retryWrite;
      }
    }).catch((error: unknown) => {
      if (error === retryWrite) return undefined;
      throw error;
    });
    if (result !== undefined) return result;
  }
}

/** Thrown inside a claimed update when another write landed first: the claims are reverted and it starts over. */
const retryWrite = new Error("retry the update");
