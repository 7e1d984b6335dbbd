// kube-controller-manager's deployment-controller: each Deployment owns one ReplicaSet per pod template,
// named `<deployment>-<pod-template-hash>` (pod-template-hash.ts), the hash added to its selector and
// template labels. A rolling update scales the new ReplicaSet up within maxSurge and the old ones down as
// pods become available within maxUnavailable; Recreate scales the old ones to zero, waits for their pods to
// go, then scales the new one up. A change of replicas alone scales the active ReplicaSets proportionally;
// a paused Deployment is only scaled. Status sums the ReplicaSets' and carries the Available and
// Progressing conditions (NewReplicaSetCreated, ReplicaSetUpdated, NewReplicaSetAvailable,
// ProgressDeadlineExceeded, DeploymentPaused/DeploymentResumed), and old ReplicaSets beyond
// revisionHistoryLimit are deleted once scaled to zero.
import type { KubeObject } from "../../object/kube-object.js";
import { builtinKind } from "../../registry/kinds.js";
import type { ResourceApi } from "../../resources/resource-api.js";
import { statusCode } from "../api-errors.js";
import type { ControllerContext } from "../controller-context.js";
import { getExisting, updateExisting } from "../existing-objects.js";
import { followObjects, trackKnown } from "../follow-objects.js";
import { WorkQueue } from "../work-queue.js";
import { ControllerRefManager, controllerRefTo, type Owner } from "./controller-ref.js";
import {
  type DeploymentShape,
  type DeploymentStatus,
  deploymentComplete,
  deploymentCondition,
  deploymentProgressing,
  deploymentTimedOut,
  desiredReplicasAnnotation,
  hasProgressDeadline,
  maxSurge,
  maxUnavailable,
  newReplicaSetReplicas,
  proportion,
  type ReplicaSetShape,
  replicasOf,
  revisionAnnotation,
  revisionOf,
  rsReplicas,
  setDeploymentCondition,
  setReplicaSetAnnotations,
  setReplicasAnnotations,
} from "./deployment-rules.js";
import { EventRecorder } from "./event-recorder.js";
import { errorText, pods } from "./pod-control.js";
import { podTemplateHash } from "./pod-template-hash.js";
import { replicaSets } from "./replicaset-controller.js";
import {
  controllerRefOf,
  isDeleting,
  jsonEqual,
  keyOf,
  metaOf,
  type PodShape,
  selectorOf,
  splitKey,
} from "./workload-objects.js";

const deployments = builtinKind("apps", "v1", "deployments");
const component = "deployment-controller";
const hashLabel = "pod-template-hash";

const created = (obj: { metadata?: { creationTimestamp?: string } }) =>
  Date.parse(obj.metadata?.creationTimestamp ?? "") || 0;
const byCreation = (a: ReplicaSetShape, b: ReplicaSetShape) =>
  created(a) - created(b) || (metaOf(a).name ?? "").localeCompare(metaOf(b).name ?? "");

const ownerOf = (d: DeploymentShape): Owner => ({
  object: d as KubeObject,
  apiVersion: "apps/v1",
  kind: "Deployment",
  served: deployments,
});

/** kube's EqualIgnoreHash: the templates equal once the pod-template-hash label is dropped. */
function equalIgnoringHash(a: ReplicaSetShape["spec"], b: DeploymentShape["spec"]): boolean {
  const strip = (template: unknown) => {
    const copy = structuredClone(template ?? {}) as { metadata?: { labels?: Record<string, string> } };
    if (copy.metadata?.labels !== undefined) delete copy.metadata.labels[hashLabel];
    return copy;
  };
  return jsonEqual(strip(a?.template), strip(b?.template));
}

export class DeploymentController {
  private readonly queue: WorkQueue<string>;
  private readonly events: EventRecorder;
  private readonly known = new Map<string, DeploymentShape>();

  constructor(
    private readonly api: ResourceApi,
    private readonly context: ControllerContext,
  ) {
    this.queue = new WorkQueue((key) => this.sync(key), { name: component, log: context.log });
    this.events = new EventRecorder(api, component, { apiVersion: "apps/v1", kind: "Deployment" }, context);
  }

  async run(): Promise<void> {
    const follow = { ...this.context, name: component };
    await Promise.all([
      followObjects(
        this.api,
        { kind: deployments },
        trackKnown(this.known, (key) => this.queue.add(key)),
        follow,
      ),
      followObjects(this.api, { kind: replicaSets }, (event) => this.onReplicaSet(event.object), follow),
      followObjects(
        this.api,
        { kind: pods },
        (event) => {
          // Recreate waits for the old pods to go.
          if (event.type === "DELETED") this.onPodGone(event.object as PodShape);
        },
        follow,
      ),
    ]);
    await this.queue.stop();
  }

  private onReplicaSet(rs: KubeObject): void {
    const meta = metaOf(rs);
    const ref = controllerRefOf(rs);
    if (ref !== undefined) {
      if (ref.kind === "Deployment") this.queue.add(`${meta.namespace}/${ref.name}`);
      return;
    }
    for (const [key, d] of this.known) {
      if (metaOf(d).namespace !== meta.namespace) continue;
      if (selectorOf(d.spec?.selector)?.matches(meta.labels ?? {}) === true) this.queue.add(key);
    }
  }

  private onPodGone(pod: PodShape): void {
    const namespace = metaOf(pod).namespace;
    const ref = controllerRefOf(pod);
    if (ref?.kind !== "ReplicaSet") return;
    for (const [key, d] of this.known) {
      if (metaOf(d).namespace === namespace && d.spec?.strategy?.type === "Recreate") this.queue.add(key);
    }
  }

  private async sync(key: string): Promise<undefined> {
    const { namespace, name } = splitKey(key);
    const found = await getExisting(this.api, { kind: deployments, namespace, name });
    if (found === undefined) return undefined;
    const d = structuredClone(found) as DeploymentShape;
    const selector = d.spec?.selector ?? {};
    if (Object.keys(selector.matchLabels ?? {}).length === 0 && (selector.matchExpressions ?? []).length === 0) {
      this.events.record(
        d,
        "Warning",
        "SelectingAll",
        "This deployment is selecting all pods. A non-empty selector is required.",
      );
      if ((d.status?.observedGeneration ?? 0) < (metaOf(d).generation ?? 0)) {
        await this.writeStatus(d, { ...d.status, observedGeneration: metaOf(d).generation ?? 0 });
      }
      return undefined;
    }
    const matcher = selectorOf(selector);
    if (matcher === undefined) return undefined;
    const owner = ownerOf(d);
    const all = (await this.api.list({ kind: replicaSets, namespace })).items.map((item) => item.object);
    const owned = (await new ControllerRefManager(this.api, owner, matcher).claim(replicaSets, all)).map(
      (rs) => structuredClone(rs) as ReplicaSetShape,
    );
    if (isDeleting(d)) {
      await this.syncStatusOnly(d, owned);
      return undefined;
    }
    await this.checkPausedConditions(d);
    if (d.spec?.paused === true || this.isScalingEvent(d, owned)) {
      await this.syncScale(d, owned);
      return undefined;
    }
    if (d.spec?.strategy?.type === "Recreate") await this.rolloutRecreate(d, owned);
    else await this.rolloutRolling(d, owned);
    return undefined;
  }

  /** kube's getAllReplicaSetsAndSyncRevision: the new ReplicaSet (created when asked) and the old ones. */
  private async replicaSetsOf(
    d: DeploymentShape,
    owned: ReplicaSetShape[],
    create: boolean,
  ): Promise<{ newRs: ReplicaSetShape | undefined; oldRss: ReplicaSetShape[] }> {
    const sorted = [...owned].sort(byCreation);
    const existing = sorted.find((rs) => equalIgnoringHash(rs.spec, d.spec));
    const oldRss = sorted.filter((rs) => rs !== existing);
    if (!create && existing === undefined) return { newRs: undefined, oldRss };
    const revision = Math.max(0, ...oldRss.map(revisionOf)) + 1;
    if (existing !== undefined) return { newRs: await this.syncExistingRevision(d, existing, revision), oldRss };
    return { newRs: await this.createReplicaSet(d, oldRss, revision), oldRss };
  }

  private async syncExistingRevision(d: DeploymentShape, rs: ReplicaSetShape, revision: number) {
    const copy = structuredClone(rs);
    const annotationsChanged = setReplicaSetAnnotations(d, copy, revision);
    const minReadyChanged = (copy.spec?.minReadySeconds ?? 0) !== (d.spec?.minReadySeconds ?? 0);
    let current = rs;
    if (annotationsChanged || minReadyChanged) {
      copy.spec = { ...copy.spec, minReadySeconds: d.spec?.minReadySeconds ?? 0 };
      current = (await this.api.update(this.rsTarget(copy), copy as KubeObject)).object as ReplicaSetShape;
    }
    await this.setDeploymentRevision(d, String(revisionOf(current)));
    if (hasProgressDeadline(d) && !(d.status?.conditions ?? []).some((c) => c.type === "Progressing")) {
      await this.writeProgressing(d, "True", "FoundNewReplicaSet", `Found new replica set "${metaOf(current).name}"`);
    }
    return current;
  }

  private async setDeploymentRevision(d: DeploymentShape, revision: string): Promise<void> {
    if (d.metadata?.annotations?.[revisionAnnotation] === revision) return;
    const meta = metaOf(d);
    const copy = structuredClone(d);
    copy.metadata = { ...copy.metadata, annotations: { ...meta.annotations, [revisionAnnotation]: revision } };
    const written = (
      await this.api.update({ kind: deployments, namespace: meta.namespace, name: meta.name }, copy as KubeObject)
    ).object as DeploymentShape;
    if (written.metadata !== undefined) d.metadata = written.metadata;
  }

  private async createReplicaSet(d: DeploymentShape, oldRss: ReplicaSetShape[], revision: number) {
    const meta = metaOf(d);
    const hash = podTemplateHash(d.spec?.template, d.status?.collisionCount);
    const template = structuredClone(d.spec?.template ?? {});
    template.metadata = { ...template.metadata, labels: { ...template.metadata?.labels, [hashLabel]: hash } };
    const selector = structuredClone(d.spec?.selector ?? {});
    selector.matchLabels = { ...selector.matchLabels, [hashLabel]: hash };
    const owner = ownerOf(d);
    const rs: ReplicaSetShape = {
      metadata: {
        name: `${meta.name}-${hash}`,
        ...(meta.namespace === undefined ? {} : { namespace: meta.namespace }),
        ownerReferences: [controllerRefTo(owner)],
        labels: { ...template.metadata.labels },
      },
      spec: { replicas: 0, minReadySeconds: d.spec?.minReadySeconds ?? 0, selector, template },
    };
    const replicas = newReplicaSetReplicas(d, [...oldRss, rs], rs);
    rs.spec = { ...rs.spec, replicas };
    setReplicaSetAnnotations(d, rs, revision);
    let createdRs: ReplicaSetShape;
    try {
      createdRs = (await this.api.create({ kind: replicaSets, namespace: meta.namespace }, {
        apiVersion: "apps/v1",
        kind: "ReplicaSet",
        ...rs,
      } as KubeObject)) as ReplicaSetShape;
    } catch (error) {
      if (statusCode(error) === 409) return this.collision(d, rs, error);
      const message = `Failed to create new replica set "${metaOf(rs).name}": ${errorText(error)}`;
      this.events.record(d, "Warning", "FailedCreate", message);
      if (hasProgressDeadline(d)) await this.writeProgressing(d, "False", "ReplicaSetCreateError", message);
      throw error;
    }
    if (replicas > 0) {
      this.events.record(
        d,
        "Normal",
        "ScalingReplicaSet",
        `Scaled up replica set ${metaOf(createdRs).name} from 0 to ${replicas}`,
      );
    }
    await this.setDeploymentRevision(d, String(revision));
    if (hasProgressDeadline(d)) {
      await this.writeProgressing(
        d,
        "True",
        "NewReplicaSetCreated",
        `Created new replica set "${metaOf(createdRs).name}"`,
      );
    }
    return createdRs;
  }

  /** A ReplicaSet of that name exists: ours with this template is the new one; otherwise count a collision. */
  private async collision(d: DeploymentShape, rs: ReplicaSetShape, error: unknown): Promise<ReplicaSetShape> {
    const meta = metaOf(rs);
    const existing = (await this.api.get({ kind: replicaSets, namespace: meta.namespace, name: meta.name }))
      .object as ReplicaSetShape;
    if (controllerRefOf(existing)?.uid === metaOf(d).uid && equalIgnoringHash(existing.spec, d.spec)) return existing;
    await this.writeStatus(d, {
      ...structuredClone(d.status ?? {}),
      collisionCount: (d.status?.collisionCount ?? 0) + 1,
    });
    throw error;
  }

  private rsTarget(rs: ReplicaSetShape) {
    const meta = metaOf(rs);
    return { kind: replicaSets, namespace: meta.namespace, name: meta.name };
  }

  /** kube's scaleReplicaSetAndRecordEvent; true when the size changed. */
  private async scaleReplicaSet(d: DeploymentShape, rs: ReplicaSetShape, replicas: number): Promise<boolean> {
    const from = rsReplicas(rs);
    const copy = structuredClone(rs);
    const annotationsChanged = setReplicasAnnotations(copy, replicasOf(d), replicasOf(d) + maxSurge(d));
    if (from === replicas && !annotationsChanged) return false;
    copy.spec = { ...copy.spec, replicas };
    const written = (await this.api.update(this.rsTarget(copy), copy as KubeObject)).object as ReplicaSetShape;
    Object.assign(rs, structuredClone(written));
    if (from === replicas) return false;
    const direction = replicas > from ? "up" : "down";
    this.events.record(
      d,
      "Normal",
      "ScalingReplicaSet",
      `Scaled ${direction} replica set ${metaOf(rs).name} from ${from} to ${replicas}`,
    );
    return true;
  }

  private isScalingEvent(d: DeploymentShape, owned: ReplicaSetShape[]): boolean {
    return owned
      .filter((rs) => rsReplicas(rs) > 0)
      .some((rs) => {
        const desired = rs.metadata?.annotations?.[desiredReplicasAnnotation];
        return desired !== undefined && desired !== String(replicasOf(d));
      });
  }

  /** kube's checkPausedConditions. */
  private async checkPausedConditions(d: DeploymentShape): Promise<void> {
    if (!hasProgressDeadline(d)) return;
    const progressing = (d.status?.conditions ?? []).find((c) => c.type === "Progressing");
    if (progressing?.reason === "ProgressDeadlineExceeded") return;
    const pausedCondition = progressing?.reason === "DeploymentPaused";
    if (d.spec?.paused === true && !pausedCondition) {
      await this.writeProgressing(d, "Unknown", "DeploymentPaused", "Deployment is paused");
    } else if (d.spec?.paused !== true && pausedCondition) {
      await this.writeProgressing(d, "Unknown", "DeploymentResumed", "Deployment is resumed");
    }
  }

  /** kube's sync: scaling (proportional when several ReplicaSets are active), cleanup when paused, status. */
  private async syncScale(d: DeploymentShape, owned: ReplicaSetShape[]): Promise<void> {
    const { newRs, oldRss } = await this.replicaSetsOf(d, owned, false);
    await this.scale(d, newRs, oldRss);
    if (d.spec?.paused === true) await this.cleanup(d, oldRss);
    await this.syncStatusOnly(d, owned, newRs, oldRss);
  }

  private async scale(d: DeploymentShape, newRs: ReplicaSetShape | undefined, oldRss: ReplicaSetShape[]) {
    const all = [...(newRs === undefined ? [] : [newRs]), ...oldRss];
    const active = all.filter((rs) => rsReplicas(rs) > 0);
    if (active.length <= 1) {
      const target = active[0] ?? (newRs !== undefined ? newRs : [...oldRss].sort(byCreation).at(-1));
      if (target !== undefined) await this.scaleReplicaSet(d, target, replicasOf(d));
      return;
    }
    if (
      newRs !== undefined &&
      rsReplicas(newRs) === replicasOf(d) &&
      (newRs.status?.availableReplicas ?? 0) === replicasOf(d)
    ) {
      for (const rs of oldRss.filter((r) => rsReplicas(r) > 0)) await this.scaleReplicaSet(d, rs, 0);
      return;
    }
    const allowed = replicasOf(d) > 0 ? replicasOf(d) + maxSurge(d) : 0;
    const toAdd = allowed - active.reduce((sum, rs) => sum + rsReplicas(rs), 0);
    const order = [...active].sort((a, b) =>
      rsReplicas(a) !== rsReplicas(b)
        ? rsReplicas(b) - rsReplicas(a)
        : toAdd > 0
          ? created(b) - created(a)
          : created(a) - created(b),
    );
    const sizes = new Map<ReplicaSetShape, number>();
    let added = 0;
    for (const rs of order) {
      const share = proportion(d, rs, toAdd, added);
      sizes.set(rs, rsReplicas(rs) + share);
      added += share;
    }
    const first = order[0];
    if (first !== undefined && toAdd !== added) sizes.set(first, Math.max((sizes.get(first) ?? 0) + toAdd - added, 0));
    for (const rs of order) await this.scaleReplicaSet(d, rs, Math.max(sizes.get(rs) ?? 0, 0));
  }

  private async rolloutRolling(d: DeploymentShape, owned: ReplicaSetShape[]): Promise<void> {
    const { newRs, oldRss } = await this.replicaSetsOf(d, owned, true);
    const all = [...(newRs === undefined ? [] : [newRs]), ...oldRss];
    if (newRs !== undefined && (await this.reconcileNewReplicaSet(d, all, newRs))) {
      await this.syncRolloutStatus(d, all, newRs);
      return;
    }
    if (await this.reconcileOldReplicaSets(d, all, oldRss, newRs)) {
      await this.syncRolloutStatus(d, all, newRs);
      return;
    }
    if (deploymentComplete(d, d.status ?? {})) await this.cleanup(d, oldRss);
    await this.syncRolloutStatus(d, all, newRs);
  }

  private async reconcileNewReplicaSet(d: DeploymentShape, all: ReplicaSetShape[], newRs: ReplicaSetShape) {
    if (rsReplicas(newRs) === replicasOf(d)) return false;
    if (rsReplicas(newRs) > replicasOf(d)) return this.scaleReplicaSet(d, newRs, replicasOf(d));
    return this.scaleReplicaSet(d, newRs, newReplicaSetReplicas(d, all, newRs));
  }

  /** kube's reconcileOldReplicaSets: unhealthy old replicas first, then as availability allows. */
  private async reconcileOldReplicaSets(
    d: DeploymentShape,
    all: ReplicaSetShape[],
    oldRss: ReplicaSetShape[],
    newRs: ReplicaSetShape | undefined,
  ): Promise<boolean> {
    if (oldRss.reduce((sum, rs) => sum + rsReplicas(rs), 0) === 0) return false;
    const allPods = all.reduce((sum, rs) => sum + rsReplicas(rs), 0);
    const minAvailable = replicasOf(d) - maxUnavailable(d);
    const newUnavailable = newRs === undefined ? 0 : rsReplicas(newRs) - (newRs.status?.availableReplicas ?? 0);
    const maxScaledDown = allPods - minAvailable - newUnavailable;
    if (maxScaledDown <= 0) return false;
    let cleaned = 0;
    for (const rs of [...oldRss].sort(byCreation)) {
      if (cleaned >= maxScaledDown) break;
      const available = rs.status?.availableReplicas ?? 0;
      if (rsReplicas(rs) === 0 || rsReplicas(rs) === available) continue;
      const down = Math.min(maxScaledDown - cleaned, rsReplicas(rs) - available);
      await this.scaleReplicaSet(d, rs, rsReplicas(rs) - down);
      cleaned += down;
    }
    const availablePods = all.reduce((sum, rs) => sum + (rs.status?.availableReplicas ?? 0), 0);
    let scaledDown = 0;
    if (availablePods > minAvailable) {
      let remaining = availablePods - minAvailable;
      for (const rs of [...oldRss].sort(byCreation)) {
        if (remaining <= 0) break;
        if (rsReplicas(rs) === 0) continue;
        const down = Math.min(rsReplicas(rs), remaining);
        await this.scaleReplicaSet(d, rs, rsReplicas(rs) - down);
        scaledDown += down;
        remaining -= down;
      }
    }
    return cleaned + scaledDown > 0;
  }

  private async rolloutRecreate(d: DeploymentShape, owned: ReplicaSetShape[]): Promise<void> {
    let { newRs, oldRss } = await this.replicaSetsOf(d, owned, false);
    let scaledDown = false;
    for (const rs of oldRss.filter((r) => rsReplicas(r) > 0)) {
      if (await this.scaleReplicaSet(d, rs, 0)) scaledDown = true;
    }
    const all = () => [...(newRs === undefined ? [] : [newRs]), ...oldRss];
    if (scaledDown || (await this.oldPodsRunning(d, oldRss))) {
      await this.syncRolloutStatus(d, all(), newRs);
      return;
    }
    if (newRs === undefined) ({ newRs, oldRss } = await this.replicaSetsOf(d, owned, true));
    if (newRs !== undefined) await this.scaleReplicaSet(d, newRs, replicasOf(d));
    if (deploymentComplete(d, d.status ?? {})) await this.cleanup(d, oldRss);
    await this.syncRolloutStatus(d, all(), newRs);
  }

  /** kube's oldPodsRunning: an old ReplicaSet still reports pods, or one of its pods has not finished. */
  private async oldPodsRunning(d: DeploymentShape, oldRss: ReplicaSetShape[]): Promise<boolean> {
    if (oldRss.some((rs) => (rs.status?.replicas ?? 0) > 0)) return true;
    const uids = new Set(oldRss.map((rs) => metaOf(rs).uid));
    const listed = await this.api.list({ kind: pods, namespace: metaOf(d).namespace });
    return listed.items.some((item) => {
      const pod = item.object as PodShape;
      const phase = pod.status?.phase;
      return uids.has(controllerRefOf(pod)?.uid) && phase !== "Succeeded" && phase !== "Failed";
    });
  }

  /** kube's cleanupDeployment: old ReplicaSets beyond revisionHistoryLimit, oldest revision first. */
  private async cleanup(d: DeploymentShape, oldRss: ReplicaSetShape[]): Promise<void> {
    const limit = d.spec?.revisionHistoryLimit;
    if (limit === undefined) return;
    const cleanable = oldRss
      .filter((rs) => !isDeleting(rs))
      .sort((a, b) => revisionOf(a) - revisionOf(b) || byCreation(a, b));
    const excess = cleanable.length - limit;
    for (const rs of cleanable.slice(0, Math.max(excess, 0))) {
      if ((rs.status?.replicas ?? 0) !== 0 || rsReplicas(rs) !== 0) continue;
      if ((metaOf(rs).generation ?? 0) > (rs.status?.observedGeneration ?? 0)) continue;
      try {
        await this.api.delete(this.rsTarget(rs));
      } catch (error) {
        if (statusCode(error) !== 404) throw error;
      }
    }
  }

  /** kube's calculateStatus. */
  private calculateStatus(d: DeploymentShape, all: ReplicaSetShape[], newRs: ReplicaSetShape | undefined) {
    const sum = (pick: (rs: ReplicaSetShape) => number | undefined) => all.reduce((s, rs) => s + (pick(rs) ?? 0), 0);
    const available = sum((rs) => rs.status?.availableReplicas);
    const counts: DeploymentStatus = {
      replicas: sum((rs) => rs.status?.replicas),
      updatedReplicas: newRs?.status?.replicas ?? 0,
      readyReplicas: sum((rs) => rs.status?.readyReplicas),
      availableReplicas: available,
      unavailableReplicas: Math.max(sum(rsReplicas) - available, 0),
    };
    // Go leaves zero counts out; terminatingReplicas is a pointer and stays.
    const status: DeploymentStatus = {
      observedGeneration: metaOf(d).generation ?? 0,
      ...Object.fromEntries(Object.entries(counts).filter(([, v]) => v !== 0)),
      terminatingReplicas: sum((rs) => rs.status?.terminatingReplicas),
      ...(d.status?.conditions === undefined ? {} : { conditions: structuredClone(d.status.conditions) }),
      ...(d.status?.collisionCount === undefined ? {} : { collisionCount: d.status.collisionCount }),
    };
    const now = this.api.context.now();
    setDeploymentCondition(
      status,
      available >= replicasOf(d) - maxUnavailable(d)
        ? deploymentCondition(
            "Available",
            "True",
            "MinimumReplicasAvailable",
            "Deployment has minimum availability.",
            now,
          )
        : deploymentCondition(
            "Available",
            "False",
            "MinimumReplicasUnavailable",
            "Deployment does not have minimum availability.",
            now,
          ),
    );
    return status;
  }

  private async syncStatusOnly(
    d: DeploymentShape,
    owned: ReplicaSetShape[],
    newRs?: ReplicaSetShape,
    oldRss?: ReplicaSetShape[],
  ): Promise<void> {
    const found =
      newRs === undefined && oldRss === undefined
        ? await this.replicaSetsOf(d, owned, false)
        : { newRs, oldRss: oldRss ?? [] };
    const all = [...(found.newRs === undefined ? [] : [found.newRs]), ...found.oldRss];
    const status = this.calculateStatus(d, all, found.newRs);
    if (!jsonEqual(status, d.status ?? {})) await this.writeStatus(d, status);
  }

  /** kube's syncRolloutStatus: the Progressing condition from what changed, and the stuck check's requeue. */
  private async syncRolloutStatus(d: DeploymentShape, all: ReplicaSetShape[], newRs: ReplicaSetShape | undefined) {
    const now = this.api.context.now();
    const status = this.calculateStatus(d, all, newRs);
    if (!hasProgressDeadline(d)) status.conditions = (status.conditions ?? []).filter((c) => c.type !== "Progressing");
    const current = (status.conditions ?? []).find((c) => c.type === "Progressing");
    const complete = status.replicas === status.updatedReplicas && current?.reason === "NewReplicaSetAvailable";
    const rsName = newRs === undefined ? undefined : metaOf(newRs).name;
    if (hasProgressDeadline(d) && !complete) {
      if (deploymentComplete(d, status)) {
        const message =
          rsName === undefined
            ? "Deployment has successfully progressed."
            : `ReplicaSet "${rsName}" has successfully progressed.`;
        setDeploymentCondition(
          status,
          deploymentCondition("Progressing", "True", "NewReplicaSetAvailable", message, now),
        );
      } else if (deploymentProgressing(d, status)) {
        const message = rsName === undefined ? "Deployment is progressing." : `ReplicaSet "${rsName}" is progressing.`;
        const condition = deploymentCondition("Progressing", "True", "ReplicaSetUpdated", message, now);
        if (current?.status === "True" && current.lastTransitionTime !== undefined) {
          condition.lastTransitionTime = current.lastTransitionTime;
        }
        status.conditions = [...(status.conditions ?? []).filter((c) => c.type !== "Progressing"), condition];
      } else if (deploymentTimedOut(d, status, now)) {
        const message =
          rsName === undefined
            ? "Deployment has timed out progressing."
            : `ReplicaSet "${rsName}" has timed out progressing.`;
        setDeploymentCondition(
          status,
          deploymentCondition("Progressing", "False", "ProgressDeadlineExceeded", message, now),
        );
      }
    }
    const failure = all.flatMap((rs) => rs.status?.conditions ?? []).find((c) => c.type === "ReplicaFailure");
    if (failure !== undefined) {
      setDeploymentCondition(status, {
        type: "ReplicaFailure",
        status: failure.status,
        lastUpdateTime: failure.lastTransitionTime ?? "",
        lastTransitionTime: failure.lastTransitionTime ?? "",
        reason: failure.reason ?? "",
        message: failure.message ?? "",
      });
    } else status.conditions = (status.conditions ?? []).filter((c) => c.type !== "ReplicaFailure");
    if (!jsonEqual(status, d.status ?? {})) await this.writeStatus(d, status);
    this.requeueIfStuck(d, status, now);
  }

  /** kube's requeueStuckDeployment: look again when the progress deadline would pass. */
  private requeueIfStuck(d: DeploymentShape, status: DeploymentStatus, now: Date): void {
    const current = (status.conditions ?? []).find((c) => c.type === "Progressing");
    if (!hasProgressDeadline(d) || current === undefined) return;
    if (current.reason === "NewReplicaSetAvailable" || current.reason === "ProgressDeadlineExceeded") return;
    if (deploymentComplete(d, status)) return;
    const deadline = Date.parse(current.lastUpdateTime ?? "") + (d.spec?.progressDeadlineSeconds ?? 0) * 1000;
    this.queue.addAfter(keyOf(d), Math.max(deadline - now.getTime(), 0) + 1000);
  }

  /** The Progressing condition set on the status as read and written at once, as each rollout step does. */
  private async writeProgressing(d: DeploymentShape, status: string, reason: string, message: string): Promise<void> {
    const next = structuredClone(d.status ?? {});
    setDeploymentCondition(next, deploymentCondition("Progressing", status, reason, message, this.api.context.now()));
    await this.writeStatus(d, next);
  }

  private async writeStatus(d: DeploymentShape, status: DeploymentStatus): Promise<void> {
    const meta = metaOf(d);
    const target = { kind: deployments, namespace: meta.namespace, name: meta.name, subresource: "status" };
    const written = (await updateExisting(this.api, target, { ...structuredClone(d), status } as KubeObject)) as
      | DeploymentShape
      | undefined;
    if (written?.metadata !== undefined) d.metadata = written.metadata;
    if (written?.status !== undefined) d.status = written.status;
  }
}
