// kube's persistentvolumeclaim-protection-controller: a PersistentVolumeClaim carries the finalizer
// kubernetes.io/pvc-protection (added here when admission did not), and once the claim is being deleted the
// finalizer is removed as soon as no scheduled pod uses it, so a claim in use outlives its delete until
// its pods are gone. A pod uses a claim through a `persistentVolumeClaim` volume naming it, or through a
// generic ephemeral volume whose claim (`<pod>-<volume>`) the pod controls, unless the pod is being deleted
// with no grace period.
import { pvcProtectionFinalizer } from "../admission/object-plugins/storage-object-in-use-protection.js";
import { builtinKind } from "../registry/kinds.js";
import type { ResourceApi } from "../resources/resource-api.js";
import type { ControllerContext } from "./controller-context.js";
import { followObjects } from "./follow-objects.js";
import { isDeletionCandidate, needsFinalizer, syncProtection } from "./storage-protection.js";
import { WorkQueue } from "./work-queue.js";

const claims = builtinKind("", "v1", "persistentvolumeclaims");
const pods = builtinKind("", "v1", "pods");

interface PodVolume {
  name?: string;
  persistentVolumeClaim?: { claimName?: string };
  ephemeral?: unknown;
}

interface ContainerStatus {
  state?: { running?: unknown; terminated?: unknown; waiting?: unknown };
}

interface PodShape {
  metadata?: {
    name?: string;
    namespace?: string;
    uid?: string;
    deletionTimestamp?: string;
    deletionGracePeriodSeconds?: number;
  };
  spec?: { nodeName?: string; volumes?: PodVolume[] };
  status?: {
    phase?: string;
    initContainerStatuses?: ContainerStatus[];
    containerStatuses?: ContainerStatus[];
    ephemeralContainerStatuses?: ContainerStatus[];
  };
}

interface ClaimShape {
  metadata?: {
    name?: string;
    namespace?: string;
    uid?: string;
    ownerReferences?: { uid?: string; controller?: boolean }[];
  };
}

/** Every status terminated or waiting (or none at all). */
const notRunning = (statuses: ContainerStatus[] | undefined) =>
  (statuses ?? []).every((s) => s.state?.terminated !== undefined || s.state?.waiting !== undefined);

/** kube's IsPodTerminated. */
function isTerminated(pod: PodShape): boolean {
  const status = pod.status ?? {};
  if (status.phase === "Failed" || status.phase === "Succeeded") return true;
  return (
    pod.metadata?.deletionTimestamp !== undefined &&
    notRunning(status.initContainerStatuses) &&
    notRunning(status.containerStatuses) &&
    notRunning(status.ephemeralContainerStatuses)
  );
}

/** Being deleted with no grace left: the kubelet has let go of its ephemeral volumes. */
const isShutDown = (pod: PodShape) =>
  pod.metadata?.deletionTimestamp !== undefined && pod.metadata.deletionGracePeriodSeconds === 0;

/** The claim of a generic ephemeral volume: kube's VolumeClaimName. */
const ephemeralClaimName = (pod: PodShape, volume: PodVolume) => `${pod.metadata?.name ?? ""}-${volume.name ?? ""}`;

/** kube's VolumeIsForPod: the claim's controller is the pod. */
const controlledBy = (claim: ClaimShape, pod: PodShape) =>
  (claim.metadata?.ownerReferences ?? []).some((ref) => ref.controller === true && ref.uid === pod.metadata?.uid);

/** kube's podUsesPVCForDeletion: only scheduled pods count, since the kubelet sees no other. */
function podUsesClaim(pod: PodShape, claim: ClaimShape): boolean {
  if (!pod.spec?.nodeName) return false;
  const name = claim.metadata?.name;
  return (pod.spec.volumes ?? []).some(
    (volume) =>
      volume.persistentVolumeClaim?.claimName === name ||
      (!isShutDown(pod) &&
        volume.ephemeral !== undefined &&
        volume.ephemeral !== null &&
        ephemeralClaimName(pod, volume) === name &&
        controlledBy(claim, pod)),
  );
}

/** The claims a pod's volumes name, as `<namespace>/<name>` keys. */
function claimKeys(pod: PodShape): string[] {
  const namespace = pod.metadata?.namespace ?? "";
  return (pod.spec?.volumes ?? []).flatMap((volume) => {
    if (volume.persistentVolumeClaim !== undefined)
      return [`${namespace}/${volume.persistentVolumeClaim.claimName ?? ""}`];
    if (volume.ephemeral !== undefined && volume.ephemeral !== null)
      return [`${namespace}/${ephemeralClaimName(pod, volume)}`];
    return [];
  });
}

export class PvcProtectionController {
  private readonly queue: WorkQueue<string>;

  constructor(
    private readonly api: ResourceApi,
    private readonly context: ControllerContext,
  ) {
    this.queue = new WorkQueue((key) => this.sync(key), { name: "pvc protection controller", log: context.log });
  }

  async run(): Promise<void> {
    const follow = { ...this.context, name: "pvc protection controller" };
    await Promise.all([
      followObjects(
        this.api,
        { kind: claims },
        (event) => {
          if (event.type === "DELETED") return;
          const claim = event.object;
          if (needsFinalizer(claim, pvcProtectionFinalizer) || isDeletionCandidate(claim, pvcProtectionFinalizer)) {
            const meta = claim.metadata as { namespace?: string; name?: string };
            this.queue.add(`${meta.namespace}/${meta.name}`);
          }
        },
        follow,
      ),
      followObjects(
        this.api,
        { kind: pods },
        (event) => {
          const pod = event.object as PodShape;
          // Only a pod that stops using its claims can let a claim go.
          if (event.type !== "DELETED" && !isTerminated(pod) && pod.spec?.nodeName) return;
          for (const key of claimKeys(pod)) this.queue.add(key);
        },
        follow,
      ),
    ]);
    await this.queue.stop();
  }

  private sync(key: string): Promise<undefined> {
    const [namespace, name] = key.split("/") as [string, string];
    return syncProtection(this.api, { kind: claims, namespace, name }, pvcProtectionFinalizer, async (claim) => {
      // A live list: a pod the watch has not shown yet must still keep the claim.
      const { items } = await this.api.list({ kind: pods, namespace });
      return items.some((item) => podUsesClaim(item.object as PodShape, claim as ClaimShape));
    });
  }
}
