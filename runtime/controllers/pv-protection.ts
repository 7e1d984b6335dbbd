// kube's persistentvolume-protection-controller: a PersistentVolume carries the finalizer
// kubernetes.io/pv-protection (added here when admission did not), and once the volume is being deleted the
// finalizer is removed as soon as its phase is no longer Bound.
import { pvProtectionFinalizer } from "../admission/object-plugins/storage-object-in-use-protection.js";
import { builtinKind } from "../registry/kinds.js";
import type { ResourceApi } from "../resources/resource-api.js";
import type { ControllerContext } from "./controller-context.js";
import { followObjects } from "./follow-objects.js";
import { isDeletionCandidate, needsFinalizer, syncProtection } from "./storage-protection.js";
import { WorkQueue } from "./work-queue.js";

const volumes = builtinKind("", "v1", "persistentvolumes");

export class PvProtectionController {
  private readonly queue: WorkQueue<string>;

  constructor(
    private readonly api: ResourceApi,
    private readonly context: ControllerContext,
  ) {
    this.queue = new WorkQueue((name) => this.sync(name), { name: "pv protection controller", log: context.log });
  }

  async run(): Promise<void> {
    await followObjects(
      this.api,
      { kind: volumes },
      (event) => {
        if (event.type === "DELETED") return;
        const volume = event.object;
        if (needsFinalizer(volume, pvProtectionFinalizer) || isDeletionCandidate(volume, pvProtectionFinalizer)) {
          this.queue.add(String((volume.metadata as { name?: string }).name));
        }
      },
      { ...this.context, name: "pv protection controller" },
    );
    await this.queue.stop();
  }

  private sync(name: string): Promise<undefined> {
    return syncProtection(
      this.api,
      { kind: volumes, name },
      pvProtectionFinalizer,
      (volume) => (volume.status as { phase?: string } | undefined)?.phase === "Bound",
    );
  }
}
