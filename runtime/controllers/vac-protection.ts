// kube's volumeattributesclass-protection-controller: a VolumeAttributesClass carries the finalizer
// kubernetes.io/vac-protection (added here when admission did not), and once the class is being deleted the
// finalizer is removed as soon as no PersistentVolume (`spec.volumeAttributesClassName`) and no
// PersistentVolumeClaim (`spec.volumeAttributesClassName`, `status.currentVolumeAttributesClassName`,
// `status.modifyVolumeStatus.targetVolumeAttributesClassName`) names it.
import { vacProtectionFinalizer } from "../admission/object-plugins/storage-object-in-use-protection.js";
import type { KubeObject } from "../object/kube-object.js";
import { builtinKind } from "../registry/kinds.js";
import type { ResourceApi } from "../resources/resource-api.js";
import type { ControllerContext } from "./controller-context.js";
import { followObjects } from "./follow-objects.js";
import { isDeletionCandidate, needsFinalizer, syncProtection } from "./storage-protection.js";
import { WorkQueue } from "./work-queue.js";

const classes = builtinKind("storage.k8s.io", "v1", "volumeattributesclasses");
const volumes = builtinKind("", "v1", "persistentvolumes");
const claims = builtinKind("", "v1", "persistentvolumeclaims");

interface VolumeShape {
  spec?: { volumeAttributesClassName?: string };
  status?: {
    currentVolumeAttributesClassName?: string;
    modifyVolumeStatus?: { targetVolumeAttributesClassName?: string };
  };
}

/** The classes a volume or claim names (a volume has only the spec field). */
function classNames(obj: KubeObject): string[] {
  const v = obj as VolumeShape;
  return [
    v.spec?.volumeAttributesClassName,
    v.status?.currentVolumeAttributesClassName,
    v.status?.modifyVolumeStatus?.targetVolumeAttributesClassName,
  ].filter((name): name is string => name !== undefined && name !== "");
}

export class VacProtectionController {
  private readonly queue: WorkQueue<string>;
  /** Classes waiting for their finalizer to go: a volume or claim that changes may free any of them. */
  private readonly deleting = new Set<string>();

  constructor(
    private readonly api: ResourceApi,
    private readonly context: ControllerContext,
  ) {
    this.queue = new WorkQueue((name) => this.sync(name), { name: "vac protection controller", log: context.log });
  }

  async run(): Promise<void> {
    const follow = { ...this.context, name: "vac protection controller" };
    const users = () => {
      for (const name of this.deleting) this.queue.add(name);
    };
    await Promise.all([
      followObjects(
        this.api,
        { kind: classes },
        (event) => {
          const name = String((event.object.metadata as { name?: string }).name);
          if (event.type === "DELETED") {
            this.deleting.delete(name);
            return;
          }
          if (isDeletionCandidate(event.object, vacProtectionFinalizer)) this.deleting.add(name);
          else this.deleting.delete(name);
          if (needsFinalizer(event.object, vacProtectionFinalizer) || this.deleting.has(name)) this.queue.add(name);
        },
        follow,
      ),
      followObjects(this.api, { kind: volumes }, users, follow),
      followObjects(this.api, { kind: claims }, users, follow),
    ]);
    await this.queue.stop();
  }

  private async inUse(name: string): Promise<boolean> {
    for (const kind of [volumes, claims]) {
      const { items } = await this.api.list({ kind });
      if (items.some((item) => classNames(item.object).includes(name))) return true;
    }
    return false;
  }

  private sync(name: string): Promise<undefined> {
    return syncProtection(this.api, { kind: classes, name }, vacProtectionFinalizer, () => this.inUse(name));
  }
}
