// kube-controller-manager's job-controller: keeps `parallelism` pods (never more than the completions still
// missing) running for each Job, each carrying the job's labels, the `batch.kubernetes.io/job-tracking`
// finalizer and the job's controller reference. A pod that finishes (Succeeded, Failed, or deleted before
// succeeding) is first recorded in status.uncountedTerminatedPods, then loses its finalizer, then moves into
// status.succeeded/failed. The job completes (SuccessCriteriaMet, then Complete) once enough pods
// succeeded, and fails (FailureTarget, then Failed) past backoffLimit failures or activeDeadlineSeconds,
// its active pods deleted first. A suspended job's pods are deleted (condition Suspended, JobSuspended or
// JobResumed). Pods whose job is gone lose their finalizer, so that the garbage collector can remove them.
import type { KubeObject } from "../../object/kube-object.js";
import { builtinKind } from "../../registry/kinds.js";
import type { ResourceApi } from "../../resources/resource-api.js";
import { formatTime } from "../../resources/timestamps.js";
import { statusCode } from "../api-errors.js";
import type { ControllerContext } from "../controller-context.js";
import { getExisting } from "../existing-objects.js";
import { followObjects } from "../follow-objects.js";
import { updateWithRetry } from "../update-with-retry.js";
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
} from "./workload-objects.js";

export const jobs = builtinKind("batch", "v1", "jobs");
const component = "job-controller";
export const trackingFinalizer = "batch.kubernetes.io/job-tracking";
/** kube's MaxPodCreateDeletePerSync. */
const maxPerSync = 500;

interface JobStatus {
  conditions?: Condition[];
  startTime?: string;
  completionTime?: string;
  active?: number;
  succeeded?: number;
  failed?: number;
  terminating?: number;
  ready?: number;
  uncountedTerminatedPods?: { succeeded?: string[]; failed?: string[] };
}

interface JobShape {
  metadata?: Meta;
  spec?: {
    parallelism?: number;
    completions?: number;
    activeDeadlineSeconds?: number;
    backoffLimit?: number;
    selector?: { matchLabels?: Record<string, string> };
    template?: PodTemplate;
    suspend?: boolean;
    completionMode?: string;
    podReplacementPolicy?: string;
  };
  status?: JobStatus;
}

const ownerOf = (job: JobShape): Owner => ({
  object: job as KubeObject,
  apiVersion: "batch/v1",
  kind: "Job",
  served: jobs,
});

const hasFinalizer = (pod: PodShape) => (metaOf(pod).finalizers ?? []).includes(trackingFinalizer);

function conditionTrue(job: JobShape, type: string): Condition | undefined {
  return (job.status?.conditions ?? []).find((c) => c.type === type && c.status === "True");
}

const isFinished = (job: JobShape) =>
  conditionTrue(job, "Complete") !== undefined || conditionTrue(job, "Failed") !== undefined;

/** kube's isPodFailed: Failed, or deleted before succeeding unless only failed pods are replaced. */
function isPodFailed(pod: PodShape, job: JobShape): boolean {
  if (pod.status?.phase === "Failed") return true;
  if (job.spec?.podReplacementPolicy === "Failed") return false;
  return isDeleting(pod) && pod.status?.phase !== "Succeeded";
}

function jobCondition(type: string, status: string, reason: string, message: string, now: Date): Condition {
  const time = formatTime(now);
  return { type, status, lastProbeTime: time, lastTransitionTime: time, reason, message };
}

/** kube's ensureJobConditionStatus: never adds a False condition, updates one that differs. */
function ensureCondition(status: JobStatus, condition: Condition): boolean {
  const conditions = status.conditions ?? [];
  const index = conditions.findIndex((c) => c.type === condition.type);
  if (index >= 0) {
    const current = conditions[index] as Condition;
    if (
      current.status === condition.status &&
      current.reason === condition.reason &&
      current.message === condition.message
    ) {
      return false;
    }
    status.conditions = conditions.map((c, i) => (i === index ? condition : c));
    return true;
  }
  if (condition.status === "False") return false;
  status.conditions = [...conditions, condition];
  return true;
}

export class JobController {
  private readonly queue: WorkQueue<string>;
  private readonly orphans: WorkQueue<string>;
  private readonly events: EventRecorder;

  constructor(
    private readonly api: ResourceApi,
    private readonly context: ControllerContext,
  ) {
    this.queue = new WorkQueue((key) => this.sync(key), { name: component, log: context.log });
    this.orphans = new WorkQueue((key) => this.releaseOrphan(key), {
      name: `${component} (orphan pods)`,
      log: context.log,
    });
    this.events = new EventRecorder(api, component, { apiVersion: "batch/v1", kind: "Job" }, context);
  }

  async run(): Promise<void> {
    const follow = { ...this.context, name: component };
    await Promise.all([
      followObjects(this.api, { kind: jobs }, (event) => this.queue.add(keyOf(event.object)), follow),
      followObjects(this.api, { kind: pods }, (event) => this.onPod(event.object as PodShape), follow),
    ]);
    await Promise.all([this.queue.stop(), this.orphans.stop()]);
  }

  private onPod(pod: PodShape): void {
    const meta = metaOf(pod);
    const ref = controllerRefOf(pod);
    if (ref?.kind === "Job" && ref.apiVersion.startsWith("batch/")) this.queue.add(`${meta.namespace}/${ref.name}`);
    if (hasFinalizer(pod)) this.orphans.add(keyOf(pod));
  }

  /** A pod with the tracking finalizer whose job is gone, not its controller, or finished, loses it. */
  private async releaseOrphan(key: string): Promise<undefined> {
    const { namespace, name } = splitKey(key);
    const pod = (await getExisting(this.api, { kind: pods, namespace, name })) as PodShape | undefined;
    if (pod === undefined || !hasFinalizer(pod)) return undefined;
    const ref = controllerRefOf(pod);
    if (ref?.kind === "Job") {
      const job = (await getExisting(this.api, { kind: jobs, namespace, name: ref.name })) as JobShape | undefined;
      // The job's own sync counts the pod before removing the finalizer.
      if (job !== undefined && metaOf(job).uid === ref.uid && !isFinished(job)) return undefined;
    }
    await this.removeFinalizer(pod);
    return undefined;
  }

  private async removeFinalizer(pod: PodShape): Promise<void> {
    const meta = metaOf(pod);
    await updateWithRetry(
      this.api,
      { kind: pods, namespace: meta.namespace, name: meta.name },
      (obj) => {
        const current = obj.metadata as Meta;
        if (!(current.finalizers ?? []).includes(trackingFinalizer)) return false;
        const rest = (current.finalizers ?? []).filter((f) => f !== trackingFinalizer);
        // Go leaves an empty list out.
        if (rest.length > 0) current.finalizers = rest;
        else delete current.finalizers;
        return true;
      },
      meta.uid,
    );
  }

  private async sync(key: string): Promise<undefined> {
    const { namespace, name } = splitKey(key);
    const found = await getExisting(this.api, { kind: jobs, namespace, name });
    if (found === undefined) return undefined;
    const job = structuredClone(found) as JobShape;
    const selector = selectorOf(job.spec?.selector);
    if (selector === undefined) return undefined;
    const owner = ownerOf(job);
    const all = (await this.api.list({ kind: pods, namespace })).items.map((item) => item.object);
    const claimed = (await new ControllerRefManager(this.api, owner, selector).claim(pods, all)) as PodShape[];
    if (isFinished(job)) {
      for (const pod of claimed.filter(hasFinalizer)) await this.removeFinalizer(pod);
      return undefined;
    }
    const now = this.api.context.now();
    const status: JobStatus = structuredClone(job.status ?? {});
    const uncounted = {
      succeeded: [...(status.uncountedTerminatedPods?.succeeded ?? [])],
      failed: [...(status.uncountedTerminatedPods?.failed ?? [])],
    };
    const isUncounted = (pod: PodShape) =>
      uncounted.succeeded.includes(metaOf(pod).uid ?? "") || uncounted.failed.includes(metaOf(pod).uid ?? "");
    const finishing = claimed.filter((pod) => hasFinalizer(pod) && !isUncounted(pod));
    const newSucceeded = finishing.filter((pod) => pod.status?.phase === "Succeeded");
    const newFailed = finishing.filter((pod) => pod.status?.phase !== "Succeeded" && isPodFailed(pod, job));
    const succeeded = (status.succeeded ?? 0) + uncounted.succeeded.length + newSucceeded.length;
    const failed = (status.failed ?? 0) + uncounted.failed.length + newFailed.length;
    const suspended = job.spec?.suspend === true;
    if (status.startTime === undefined && !suspended) status.startTime = formatTime(now);
    let activePods = claimed.filter(isPodActive);
    let terminating = claimed.filter(isPodTerminating).length;
    let finished = this.finishedCondition(job, status, failed, suspended, now, key);
    let manageError: unknown;
    let suspendChanged = false;
    if (finished !== undefined) {
      const { deleted, error } = await this.deletePods(job, activePods, activePods.length);
      if (deleted.length !== activePods.length) finished = undefined;
      activePods = activePods.filter((pod) => !deleted.includes(pod));
      terminating += deleted.length;
      manageError = error;
    } else {
      if (!isDeleting(job)) {
        const managed = await this.manageJob(job, activePods, succeeded, terminating);
        activePods = managed.active;
        terminating += managed.deleted;
        manageError = managed.error;
      }
      const completions = job.spec?.completions;
      const complete =
        completions === undefined
          ? succeeded > 0 && activePods.length === 0
          : succeeded >= completions && activePods.length === 0;
      if (complete) {
        finished = jobCondition(
          "SuccessCriteriaMet",
          "True",
          "CompletionsReached",
          "Reached expected number of succeeded pods",
          now,
        );
      } else if (!isDeleting(job)) {
        if (suspended) {
          suspendChanged = ensureCondition(
            status,
            jobCondition("Suspended", "True", "JobSuspended", "Job suspended", now),
          );
          if (suspendChanged) {
            this.events.record(job, "Normal", "Suspended", "Job suspended");
            delete status.startTime;
          }
        } else {
          suspendChanged = ensureCondition(
            status,
            jobCondition("Suspended", "False", "JobResumed", "Job resumed", now),
          );
          if (suspendChanged) {
            this.events.record(job, "Normal", "Resumed", "Job resumed");
            status.startTime = formatTime(now);
          }
        }
      }
    }
    // Go leaves a zero active count out.
    if (activePods.length > 0) status.active = activePods.length;
    else delete status.active;
    status.ready = activePods.filter(isPodReady).length;
    status.terminating = terminating;
    await this.trackStatus(job, status, uncounted, [...newSucceeded, ...newFailed], finished, now);
    if (manageError !== undefined) throw manageError;
    return undefined;
  }

  /** The interim condition a finishing job gets: kept from before, or from its failures or deadline. */
  private finishedCondition(
    job: JobShape,
    status: JobStatus,
    failed: number,
    suspended: boolean,
    now: Date,
    key: string,
  ): Condition | undefined {
    const met = conditionTrue(job, "SuccessCriteriaMet");
    if (met !== undefined) return met;
    const target = conditionTrue(job, "FailureTarget");
    if (target !== undefined) return target;
    if (failed > (job.spec?.backoffLimit ?? 6)) {
      return jobCondition(
        "FailureTarget",
        "True",
        "BackoffLimitExceeded",
        "Job has reached the specified backoff limit",
        now,
      );
    }
    const deadline = job.spec?.activeDeadlineSeconds;
    if (deadline === undefined || suspended || status.startTime === undefined) return undefined;
    const remaining = Date.parse(status.startTime) + deadline * 1000 - now.getTime();
    if (remaining <= 0) {
      return jobCondition(
        "FailureTarget",
        "True",
        "DeadlineExceeded",
        "Job was active longer than specified deadline",
        now,
      );
    }
    this.queue.addAfter(key, remaining);
    return undefined;
  }

  /** kube's manageJob: the pods that should run, created or deleted. */
  private async manageJob(job: JobShape, active: PodShape[], succeeded: number, terminating: number) {
    const parallelism = job.spec?.parallelism ?? 1;
    if (job.spec?.suspend === true) {
      const { deleted, error } = await this.deletePods(job, active, active.length);
      return { active: active.filter((pod) => !deleted.includes(pod)), deleted: deleted.length, error };
    }
    const completions = job.spec?.completions;
    const wantActive =
      completions === undefined
        ? succeeded > 0
          ? active.length
          : parallelism
        : Math.max(Math.min(completions - succeeded, parallelism), 0);
    if (active.length > wantActive) {
      const { deleted, error } = await this.deletePods(job, active, Math.min(active.length - wantActive, maxPerSync));
      return { active: active.filter((pod) => !deleted.includes(pod)), deleted: deleted.length, error };
    }
    const waiting = job.spec?.podReplacementPolicy === "Failed" ? terminating : 0;
    const diff = Math.min(wantActive - waiting - active.length, maxPerSync);
    if (diff <= 0) return { active, deleted: 0, error: undefined };
    const meta = metaOf(job);
    const owner = ownerOf(job);
    const created: PodShape[] = [];
    const { error } = await slowStartBatch(diff, async () => {
      try {
        const pod = await this.api.create(
          { kind: pods, namespace: meta.namespace },
          podFromTemplate(job.spec?.template ?? {}, owner, `${meta.name}-`, { finalizers: [trackingFinalizer] }),
        );
        created.push(pod as PodShape);
        this.events.record(job, "Normal", "SuccessfulCreate", `Created pod: ${metaOf(pod).name}`);
      } catch (error) {
        this.events.record(job, "Warning", "FailedCreate", `Error creating: ${errorText(error)}`);
        throw error;
      }
    });
    return { active: [...active, ...created], deleted: 0, error };
  }

  private async deletePods(job: JobShape, active: PodShape[], count: number) {
    const doomed = inDeletionOrder(active, active).slice(0, count);
    const deleted: PodShape[] = [];
    let failure: unknown;
    await Promise.all(
      doomed.map(async (pod) => {
        const meta = metaOf(pod);
        try {
          await this.api.delete({ kind: pods, namespace: meta.namespace, name: meta.name });
          deleted.push(pod);
          this.events.record(job, "Normal", "SuccessfulDelete", `Deleted pod: ${meta.name}`);
        } catch (error) {
          if (statusCode(error) === 404) {
            deleted.push(pod);
            return;
          }
          this.events.record(job, "Warning", "FailedDelete", `Error deleting: ${errorText(error)}`);
          failure ??= error;
        }
      }),
    );
    return { deleted, error: failure };
  }

  /**
   * kube's trackJobStatusAndRemoveFinalizers: finished pods recorded as uncounted, their finalizers removed,
   * then counted; a finishing job gets its interim condition at once and its final one (Complete or Failed,
   * with an event) once no pod is left uncounted or terminating.
   */
  private async trackStatus(
    job: JobShape,
    status: JobStatus,
    uncounted: { succeeded: string[]; failed: string[] },
    finishedPods: PodShape[],
    finished: Condition | undefined,
    now: Date,
  ): Promise<void> {
    for (const pod of finishedPods) {
      const uid = metaOf(pod).uid ?? "";
      if (pod.status?.phase === "Succeeded") uncounted.succeeded.push(uid);
      else uncounted.failed.push(uid);
    }
    status.uncountedTerminatedPods = {
      ...(uncounted.succeeded.length > 0 ? { succeeded: uncounted.succeeded } : {}),
      ...(uncounted.failed.length > 0 ? { failed: uncounted.failed } : {}),
    };
    if (finished !== undefined) ensureCondition(status, finished);
    if (finishedPods.length > 0) {
      await this.writeStatus(job, status);
      for (const pod of finishedPods) await this.removeFinalizer(pod);
    }
    status.succeeded = (status.succeeded ?? 0) + uncounted.succeeded.length;
    status.failed = (status.failed ?? 0) + uncounted.failed.length;
    if (status.succeeded === 0) delete status.succeeded;
    if (status.failed === 0) delete status.failed;
    status.uncountedTerminatedPods = {};
    if (finished !== undefined && (status.active ?? 0) === 0 && (status.terminating ?? 0) === 0) {
      if (finished.type === "SuccessCriteriaMet") {
        ensureCondition(status, jobCondition("Complete", "True", finished.reason ?? "", finished.message ?? "", now));
        status.completionTime = formatTime(now);
        this.events.record(job, "Normal", "Completed", "Job completed");
      } else {
        ensureCondition(status, jobCondition("Failed", "True", finished.reason ?? "", finished.message ?? "", now));
        this.events.record(job, "Warning", finished.reason ?? "", finished.message ?? "");
      }
    }
    if (!jsonEqual(status, job.status ?? {})) await this.writeStatus(job, status);
  }

  private async writeStatus(job: JobShape, status: JobStatus): Promise<void> {
    const meta = metaOf(job);
    const target = { kind: jobs, namespace: meta.namespace, name: meta.name, subresource: "status" };
    const written = (
      await this.api.update(target, { ...structuredClone(job), status: structuredClone(status) } as KubeObject)
    ).object as JobShape;
    if (written.metadata !== undefined) job.metadata = written.metadata;
    if (written.status !== undefined) job.status = written.status;
  }
}
