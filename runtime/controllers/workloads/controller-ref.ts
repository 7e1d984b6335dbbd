// kube's ControllerRefManager: which of the objects a controller's selector could pick are its own. An object
// controlled by the owner stays claimed while the selector matches it and is released (its reference
// removed) when it no longer does; an orphan the selector matches is adopted (given the owner's controller
// reference), unless either side is being deleted or a fresh read shows the owner gone, replaced or deleting.
import type { OwnerReference } from "../../../generated/meta/v1/types.js";
import type { KubeObject } from "../../object/kube-object.js";
import type { ServedKind } from "../../registry/served-kind.js";
import type { ResourceApi } from "../../resources/resource-api.js";
import type { LabelSelector } from "../../selection/label-selector.js";
import { statusCode } from "../api-errors.js";
import { updateWithRetry } from "../update-with-retry.js";
import { controllerRefOf, isDeleting, type Meta, metaOf } from "./workload-objects.js";

export interface Owner {
  object: KubeObject;
  apiVersion: string;
  kind: string;
  /** The owner's kind, for the fresh read before adopting. */
  served: ServedKind;
}

/** The reference a controller puts on what it creates or adopts. */
export function controllerRefTo(owner: Owner): OwnerReference {
  const meta = metaOf(owner.object);
  return {
    apiVersion: owner.apiVersion,
    kind: owner.kind,
    name: meta.name ?? "",
    uid: meta.uid ?? "",
    controller: true,
    blockOwnerDeletion: true,
  };
}

export class ControllerRefManager {
  private adoptable: Promise<boolean> | undefined;

  constructor(
    private readonly api: ResourceApi,
    private readonly owner: Owner,
    private readonly selector: LabelSelector,
  ) {}

  /** The candidates (of `kind`, in the owner's namespace) the owner now controls. */
  async claim<T extends KubeObject>(kind: ServedKind, candidates: readonly T[]): Promise<T[]> {
    const claimed: T[] = [];
    const ownerMeta = metaOf(this.owner.object);
    for (const candidate of candidates) {
      const meta = metaOf(candidate);
      const matches = this.selector.matches(meta.labels ?? {});
      const ref = controllerRefOf(candidate);
      if (ref !== undefined) {
        if (ref.uid !== ownerMeta.uid) continue;
        if (matches) claimed.push(candidate);
        else if (!isDeleting(this.owner.object)) await this.release(kind, candidate);
        continue;
      }
      if (!matches || isDeleting(this.owner.object) || isDeleting(candidate)) continue;
      if (meta.namespace !== ownerMeta.namespace) continue;
      if (!(await this.canAdopt())) continue;
      const adopted = await this.adopt(kind, candidate);
      if (adopted !== undefined) claimed.push(adopted as T);
    }
    return claimed;
  }

  /** kube's RecheckDeletionTimestamp: read once per sync, the first time an orphan would be adopted. */
  private canAdopt(): Promise<boolean> {
    this.adoptable ??= (async () => {
      const meta = metaOf(this.owner.object);
      try {
        const { object } = await this.api.get({ kind: this.owner.served, namespace: meta.namespace, name: meta.name });
        return metaOf(object).uid === meta.uid && !isDeleting(object);
      } catch (error) {
        if (statusCode(error) === 404) return false;
        throw error;
      }
    })();
    return this.adoptable;
  }

  private async adopt(kind: ServedKind, candidate: KubeObject): Promise<KubeObject | undefined> {
    const meta = metaOf(candidate);
    const ref = controllerRefTo(this.owner);
    try {
      return await updateWithRetry(
        this.api,
        { kind, namespace: meta.namespace, name: meta.name },
        (obj) => {
          const current = obj.metadata as Meta;
          if (controllerRefOf(obj) !== undefined || isDeleting(obj)) return false;
          current.ownerReferences = [...(current.ownerReferences ?? []).filter((r) => r.uid !== ref.uid), ref];
          return true;
        },
        meta.uid,
      );
    } catch (error) {
      // An object admission will not let the controller change stays an orphan.
      if (statusCode(error) === 422 || statusCode(error) === 403) return undefined;
      throw error;
    }
  }

  private async release(kind: ServedKind, candidate: KubeObject): Promise<void> {
    const meta = metaOf(candidate);
    const uid = metaOf(this.owner.object).uid;
    try {
      await updateWithRetry(
        this.api,
        { kind, namespace: meta.namespace, name: meta.name },
        (obj) => {
          const current = obj.metadata as Meta;
          const refs = current.ownerReferences ?? [];
          if (!refs.some((r) => r.uid === uid)) return false;
          const rest = refs.filter((r) => r.uid !== uid);
          if (rest.length > 0) current.ownerReferences = rest;
          else delete current.ownerReferences;
          return true;
        },
        meta.uid,
      );
    } catch (error) {
      if (statusCode(error) !== 422) throw error;
    }
  }
}
