// kube's ReplicaSet controller, shared by ReplicaSets and ReplicationControllers (a ReplicationController is
// a ReplicaSet with a map selector, and kube runs the same code for both): claims the pods its selector
// picks, creates pods from the template or deletes the surplus to reach spec.replicas (at most 500 per sync,
// created in slow-start batches), records SuccessfulCreate / FailedCreate / SuccessfulDelete events, and
// writes status: replicas, fullyLabeledReplicas, readyReplicas, availableReplicas, observedGeneration, the
// ReplicaFailure condition while creating or deleting fails, and (ReplicaSets) terminatingReplicas.
// Each sync reads the pods afresh through a consistent list, so kube's expectations are not needed.
import type { KubeObject } from "../../object/kube-object.js";
import type { ServedKind } from "../../registry/served-kind.js";
import type { ResourceApi } from "../../resources/resource-api.js";
import { formatTime } from "../../resources/timestamps.js";
import type { LabelSelector } from "../../selection/label-selector.js";
import type { LabelSelectorObject } from "../../selection/label-selector-object.js";
import { statusCode } from "../api-errors.js";
import type { ControllerContext } from "../controller-context.js";
import { getExisting, updateExisting } from "../existing-objects.js";
import { followObjects, trackKnown } from "../follow-objects.js";
import { WorkQueue } from "../work-queue.js";
import { ControllerRefManager, type Owner } from "./controller-ref.js";
import { EventRecorder } from "./event-recorder.js";
import { errorText, podFromTemplate, pods, slowStartBatch } from "./pod-control.js";
import { inDeletionOrder } from "./pod-ranking.js";
import {
  type Condition,
  controllerRefOf,
  isDeleting,
  isPodActive,
  isPodAvailable,
  isPodReady,
  isPodTerminating,
  jsonEqual,
  keyOf,
  type Meta,
  metaOf,
  type PodShape,
  type PodTemplate,
  selectorOf,
  splitKey,
  withCondition,
} from "./workload-objects.js";

/** kube's BurstReplicas: pods created or deleted per sync at most. */
const burstReplicas = 500;

export interface ReplicaKind {
  served: ServedKind;
  apiVersion: string;
  kind: string;
  /** The event source and log name. */
  component: string;
  /** The spec's selector as a metav1.LabelSelector (a ReplicationController's map is its matchLabels). */
  selector(spec: ReplicaSpec): LabelSelectorObject | null | undefined;
  /** Whether status carries terminatingReplicas (ReplicaSets in v1.36, not ReplicationControllers). */
  countsTerminating: boolean;
}

export interface ReplicaSpec {
  replicas?: number;
  minReadySeconds?: number;
  selector?: unknown;
  template?: PodTemplate;
}

export interface ReplicaStatus {
  replicas: number;
  fullyLabeledReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  terminatingReplicas?: number;
  observedGeneration?: number;
  conditions?: Condition[];
}

interface ReplicaObject {
  metadata?: Meta;
  spec?: ReplicaSpec;
  status?: ReplicaStatus;
}

export class ReplicaSetSync {
  private readonly queue: WorkQueue<string>;
  private readonly known = new Map<string, ReplicaObject>();
  private readonly events: EventRecorder;

  constructor(
    private readonly api: ResourceApi,
    private readonly replicaKind: ReplicaKind,
    private readonly context: ControllerContext,
  ) {
    this.queue = new WorkQueue((key) => this.sync(key), { name: replicaKind.component, log: context.log });
    this.events = new EventRecorder(api, replicaKind.component, replicaKind, context);
  }

  async run(): Promise<void> {
    const follow = { ...this.context, name: this.replicaKind.component };
    await Promise.all([
      followObjects(
        this.api,
        { kind: this.replicaKind.served },
        trackKnown(this.known, (key) => this.queue.add(key)),
        follow,
      ),
      followObjects(this.api, { kind: pods }, (event) => this.onPod(event.object as PodShape), follow),
    ]);
    await this.queue.stop();
  }

  private onPod(pod: PodShape): void {
    const meta = metaOf(pod);
    const ref = controllerRefOf(pod);
    if (ref !== undefined) {
      if (
        ref.kind === this.replicaKind.kind &&
        ref.apiVersion.split("/")[0] === this.replicaKind.apiVersion.split("/")[0]
      ) {
        this.queue.add(`${meta.namespace}/${ref.name}`);
      }
      return;
    }
    for (const [key, owner] of this.known) {
      if (metaOf(owner).namespace !== meta.namespace) continue;
      if (this.selectorOf(owner)?.matches(meta.labels ?? {}) === true) this.queue.add(key);
    }
  }

  private selectorOf(owner: ReplicaObject): LabelSelector | undefined {
    const selector = this.replicaKind.selector(owner.spec ?? {});
    return selector === undefined || selector === null ? undefined : selectorOf(selector);
  }

  private async sync(key: string): Promise<undefined> {
    const { namespace, name } = splitKey(key);
    const object = (await getExisting(this.api, { kind: this.replicaKind.served, namespace, name })) as
      | ReplicaObject
      | undefined;
    if (object === undefined) return undefined;
    const selector = this.selectorOf(object);
    if (selector === undefined) return undefined;
    const owner: Owner = {
      object: object as KubeObject,
      apiVersion: this.replicaKind.apiVersion,
      kind: this.replicaKind.kind,
      served: this.replicaKind.served,
    };
    const all = (await this.api.list({ kind: pods, namespace })).items.map((item) => item.object);
    const claimed = (await new ControllerRefManager(this.api, owner, selector).claim(pods, all)) as PodShape[];
    const active = claimed.filter(isPodActive);
    let manageError: unknown;
    let diff = 0;
    if (!isDeleting(object)) {
      diff = active.length - (object.spec?.replicas ?? 1);
      try {
        await this.manageReplicas(owner, object, active, diff);
      } catch (error) {
        manageError = error;
      }
    }
    await this.writeStatus(object, claimed, manageError, diff);
    if (manageError !== undefined) throw manageError;
    return undefined;
  }

  private async manageReplicas(owner: Owner, object: ReplicaObject, active: PodShape[], diff: number): Promise<void> {
    const meta = metaOf(object);
    if (diff < 0) {
      const template = object.spec?.template ?? {};
      const { error } = await slowStartBatch(Math.min(-diff, burstReplicas), async () => {
        try {
          const pod = await this.api.create(
            { kind: pods, namespace: meta.namespace },
            podFromTemplate(template, owner, `${meta.name}-`),
          );
          this.events.record(object, "Normal", "SuccessfulCreate", `Created pod: ${metaOf(pod).name}`);
        } catch (error) {
          this.events.record(object, "Warning", "FailedCreate", `Error creating: ${errorText(error)}`);
          throw error;
        }
      });
      if (error !== undefined) throw error;
      return;
    }
    if (diff === 0) return;
    const doomed = inDeletionOrder(active, active).slice(0, Math.min(diff, burstReplicas));
    const results = await Promise.allSettled(
      doomed.map(async (pod) => {
        const podMeta = metaOf(pod);
        try {
          await this.api.delete({ kind: pods, namespace: podMeta.namespace, name: podMeta.name });
          this.events.record(object, "Normal", "SuccessfulDelete", `Deleted pod: ${podMeta.name}`);
        } catch (error) {
          if (statusCode(error) === 404) return;
          this.events.record(object, "Warning", "FailedDelete", `Error deleting: ${errorText(error)}`);
          throw error;
        }
      }),
    );
    const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
    if (failed !== undefined) throw failed.reason;
  }

  /** kube's calculateStatus and updateReplicaSetStatus: written only when it changed. */
  private async writeStatus(object: ReplicaObject, claimed: PodShape[], manageError: unknown, diff: number) {
    const now = this.api.context.now();
    const active = claimed.filter(isPodActive);
    const templateLabels = object.spec?.template?.metadata?.labels ?? {};
    const minReadySeconds = object.spec?.minReadySeconds ?? 0;
    const fullyLabeled = active.filter((pod) =>
      Object.entries(templateLabels).every(([k, v]) => metaOf(pod).labels?.[k] === v),
    ).length;
    const ready = active.filter(isPodReady).length;
    const available = active.filter((pod) => isPodAvailable(pod, minReadySeconds, now)).length;
    const previous = object.status ?? { replicas: 0 };
    let conditions = previous.conditions ?? [];
    const failure = conditions.find((c) => c.type === "ReplicaFailure");
    if (manageError !== undefined && failure === undefined) {
      conditions = withCondition(conditions, {
        type: "ReplicaFailure",
        status: "True",
        lastTransitionTime: formatTime(now),
        reason: diff < 0 ? "FailedCreate" : "FailedDelete",
        message: errorText(manageError),
      });
    } else if (manageError === undefined && failure !== undefined) {
      conditions = conditions.filter((c) => c.type !== "ReplicaFailure");
    }
    const generation = metaOf(object).generation ?? 0;
    const status: ReplicaStatus = {
      replicas: active.length,
      ...(fullyLabeled ? { fullyLabeledReplicas: fullyLabeled } : {}),
      ...(ready ? { readyReplicas: ready } : {}),
      ...(available ? { availableReplicas: available } : {}),
      ...(this.replicaKind.countsTerminating ? { terminatingReplicas: claimed.filter(isPodTerminating).length } : {}),
      ...(generation ? { observedGeneration: generation } : {}),
      ...(conditions.length > 0 ? { conditions } : {}),
    };
    if (!jsonEqual(status, previous)) {
      const meta = metaOf(object);
      const target = {
        kind: this.replicaKind.served,
        namespace: meta.namespace,
        name: meta.name,
        subresource: "status",
      };
      await updateExisting(this.api, target, { ...structuredClone(object), status } as KubeObject);
    }
    // kube's requeue for pods that are ready but not yet available.
    if (minReadySeconds > 0 && ready === (object.spec?.replicas ?? 1) && available !== ready) {
      this.queue.addAfter(keyOf(object), minReadySeconds * 1000);
    }
  }
}
