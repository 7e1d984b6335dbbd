// kube-controller-manager's cronjob-controller (v2): for each CronJob, the most recent schedule time missed
// since its last run (or creation) starts a Job named `<cronjob>-<minutes since the epoch>` from the job
// template, annotated with `batch.kubernetes.io/cronjob-scheduled-timestamp`, unless too late for
// startingDeadlineSeconds, suspended, or forbidden by concurrencyPolicy (Forbid skips while a job runs,
// Replace deletes the running ones). Status keeps `active` (references to running jobs), `lastScheduleTime`
// and `lastSuccessfulTime`; finished jobs beyond the history limits are deleted. Each CronJob is synced
// again just after its next schedule time.
import type { KubeObject } from "../../object/kube-object.js";
import { builtinKind } from "../../registry/kinds.js";
import type { ResourceApi } from "../../resources/resource-api.js";
import { formatTime } from "../../resources/timestamps.js";
import { statusCode } from "../api-errors.js";
import type { ControllerContext } from "../controller-context.js";
import { getExisting, updateExisting } from "../existing-objects.js";
import { followObjects } from "../follow-objects.js";
import { WorkQueue } from "../work-queue.js";
import { controllerRefTo, type Owner } from "./controller-ref.js";
import { type CronSchedule, knownTimeZone, parseSchedule } from "./cron-schedule.js";
import { EventRecorder } from "./event-recorder.js";
import { errorText } from "./pod-control.js";
import {
  type Condition,
  controllerRefOf,
  isDeleting,
  jsonEqual,
  keyOf,
  type Meta,
  metaOf,
  splitKey,
} from "./workload-objects.js";

const cronJobs = builtinKind("batch", "v1", "cronjobs");
const jobs = builtinKind("batch", "v1", "jobs");
const component = "cronjob-controller";
const scheduledTimestampAnnotation = "batch.kubernetes.io/cronjob-scheduled-timestamp";
/** kube's nextScheduleDelta: sync just after the schedule time. */
const nextScheduleDeltaMs = 100;

interface JobReference {
  apiVersion?: string;
  kind?: string;
  name?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
}

interface CronJobShape {
  metadata?: Meta;
  spec?: {
    schedule?: string;
    timeZone?: string;
    startingDeadlineSeconds?: number;
    concurrencyPolicy?: string;
    suspend?: boolean;
    successfulJobsHistoryLimit?: number;
    failedJobsHistoryLimit?: number;
    jobTemplate?: { metadata?: Meta; spec?: Record<string, unknown> };
  };
  status?: { active?: JobReference[]; lastScheduleTime?: string; lastSuccessfulTime?: string };
}

interface JobShape {
  metadata?: Meta;
  status?: { conditions?: Condition[]; completionTime?: string; startTime?: string };
}

function finishedType(job: JobShape): "Complete" | "Failed" | undefined {
  const condition = (job.status?.conditions ?? []).find(
    (c) => (c.type === "Complete" || c.type === "Failed") && c.status === "True",
  );
  return condition?.type as "Complete" | "Failed" | undefined;
}

/** RFC 3339 in the schedule's zone, as Go's time.Format(time.RFC3339) writes it. */
function inZone(instant: Date, timeZone: string): string {
  if (timeZone === "UTC") return formatTime(instant);
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(instant);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "00";
  const wall = Date.UTC(+get("year"), +get("month") - 1, +get("day"), +get("hour"), +get("minute"), +get("second"));
  const offsetMinutes = Math.round((wall - Math.floor(instant.getTime() / 1000) * 1000) / 60_000);
  const sign = offsetMinutes < 0 ? "-" : "+";
  const abs = Math.abs(offsetMinutes);
  const zone =
    offsetMinutes === 0
      ? "Z"
      : `${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
  return `${get("year")}-${get("month")}-${get("day")}T${get("hour")}:${get("minute")}:${get("second")}${zone}`;
}

export class CronJobController {
  private readonly queue: WorkQueue<string>;
  private readonly events: EventRecorder;
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly api: ResourceApi,
    private readonly context: ControllerContext,
  ) {
    this.queue = new WorkQueue((key) => this.sync(key), { name: component, log: context.log });
    this.events = new EventRecorder(api, component, { apiVersion: "batch/v1", kind: "CronJob" }, context);
  }

  async run(): Promise<void> {
    const follow = { ...this.context, name: component };
    await Promise.all([
      followObjects(this.api, { kind: cronJobs }, (event) => this.queue.add(keyOf(event.object)), follow),
      followObjects(
        this.api,
        { kind: jobs },
        (event) => {
          const ref = controllerRefOf(event.object);
          if (ref?.kind === "CronJob") this.queue.add(`${metaOf(event.object).namespace}/${ref.name}`);
        },
        follow,
      ),
    ]);
    for (const timer of this.timers.values()) clearTimeout(timer);
    await this.queue.stop();
  }

  private after(ms: number, key: string): void {
    const existing = this.timers.get(key);
    if (existing !== undefined) clearTimeout(existing);
    const timer = setTimeout(
      () => {
        this.timers.delete(key);
        this.queue.add(key);
      },
      Math.min(Math.max(ms, 0), 2 ** 31 - 1),
    );
    timer.unref();
    this.timers.set(key, timer);
  }

  private async sync(key: string): Promise<undefined> {
    const { namespace, name } = splitKey(key);
    const found = await getExisting(this.api, { kind: cronJobs, namespace, name });
    if (found === undefined || isDeleting(found)) return undefined;
    const cj = structuredClone(found) as CronJobShape;
    const owned = (await this.api.list({ kind: jobs, namespace })).items
      .map((item) => item.object as JobShape)
      .filter((job) => controllerRefOf(job)?.uid === metaOf(cj).uid);
    const status = structuredClone(cj.status ?? {});
    await this.reconcileActive(cj, status, owned);
    const next = await this.schedule(cj, status, owned);
    if (!jsonEqual(status, cj.status ?? {})) await this.writeStatus(cj, status);
    await this.cleanupFinished(cj, status, owned);
    if (next !== undefined) this.after(next.getTime() - this.api.context.now().getTime() + nextScheduleDeltaMs, key);
    return undefined;
  }

  /** The active list against the jobs that exist: finished ones leave it, missing ones too. */
  private async reconcileActive(cj: CronJobShape, status: NonNullable<CronJobShape["status"]>, owned: JobShape[]) {
    const byUid = new Map(owned.map((job) => [metaOf(job).uid, job]));
    for (const job of owned) {
      const type = finishedType(job);
      const listed = (status.active ?? []).some((ref) => ref.uid === metaOf(job).uid);
      if (type === undefined) {
        if (!listed) status.active = [...(status.active ?? []), this.referenceTo(job)];
        continue;
      }
      if (listed) {
        this.events.record(
          cj,
          "Normal",
          "SawCompletedJob",
          `Saw completed job: ${metaOf(job).name}, condition: ${type}`,
        );
        status.active = (status.active ?? []).filter((ref) => ref.uid !== metaOf(job).uid);
      }
      const completion = job.status?.completionTime;
      if (type === "Complete" && completion !== undefined) {
        if (status.lastSuccessfulTime === undefined || Date.parse(completion) > Date.parse(status.lastSuccessfulTime)) {
          status.lastSuccessfulTime = completion;
        }
      }
    }
    for (const ref of status.active ?? []) {
      if (byUid.has(ref.uid)) continue;
      const job = await getExisting(this.api, { kind: jobs, namespace: ref.namespace, name: ref.name ?? "" });
      if (job !== undefined && metaOf(job).uid === ref.uid) continue;
      this.events.record(cj, "Normal", "MissingJob", `Active job went missing: ${ref.name}`);
      status.active = (status.active ?? []).filter((r) => r.uid !== ref.uid);
    }
    if ((status.active ?? []).length === 0) delete status.active;
  }

  private referenceTo(job: JobShape): JobReference {
    const meta = metaOf(job);
    return <JobReference>{
      apiVersion: "batch/v1",
      kind: "Job",
      name: meta.name,
      namespace: meta.namespace,
      resourceVersion: meta.resourceVersion,
      uid: meta.uid,
    };
  }

  /** kube's syncCronJob scheduling part; answers the next schedule time to wake up at. */
  private async schedule(
    cj: CronJobShape,
    status: NonNullable<CronJobShape["status"]>,
    owned: JobShape[],
  ): Promise<Date | undefined> {
    if (cj.spec?.suspend === true) return undefined;
    const timeZone = cj.spec?.timeZone ?? "UTC";
    if (!knownTimeZone(timeZone)) {
      this.events.record(
        cj,
        "Warning",
        "UnknownTimeZone",
        `invalid timeZone: "${timeZone}": unknown time zone ${timeZone}`,
      );
      return undefined;
    }
    let schedule: CronSchedule;
    try {
      schedule = parseSchedule(cj.spec?.schedule ?? "", timeZone);
    } catch (error) {
      this.events.record(
        cj,
        "Warning",
        "UnparseableSchedule",
        `unparseable schedule: "${cj.spec?.schedule}" : ${errorText(error)}`,
      );
      return undefined;
    }
    const now = this.api.context.now();
    const { scheduled, missed } = this.mostRecent(cj, schedule, now);
    const next = schedule.next(now);
    if (scheduled === undefined) return next;
    if (missed > 100) {
      this.events.record(
        cj,
        "Warning",
        "TooManyMissedTimes",
        `too many missed start times: ${missed}. Set or decrease .spec.startingDeadlineSeconds or check clock skew`,
      );
    }
    const deadline = cj.spec?.startingDeadlineSeconds;
    if (deadline !== undefined && scheduled.getTime() + deadline * 1000 < now.getTime()) {
      this.events.record(
        cj,
        "Warning",
        "MissSchedule",
        `Missed scheduled time to start a job: ${inZone(scheduled, timeZone)}`,
      );
      return next;
    }
    const jobName = `${metaOf(cj).name}-${Math.floor(scheduled.getTime() / 60_000)}`;
    if ((status.active ?? []).some((ref) => ref.name === jobName)) return next;
    if (owned.some((job) => metaOf(job).name === jobName)) return next;
    const policy = cj.spec?.concurrencyPolicy ?? "Allow";
    if (policy === "Forbid" && (status.active ?? []).length > 0) {
      this.events.record(
        cj,
        "Normal",
        "JobAlreadyActive",
        "Not starting job because prior execution is running and concurrency policy is Forbid",
      );
      return next;
    }
    if (policy === "Replace") {
      for (const ref of status.active ?? []) {
        await this.deleteJob(cj, ref.namespace ?? "", ref.name ?? "");
        status.active = (status.active ?? []).filter((r) => r.uid !== ref.uid);
      }
      if ((status.active ?? []).length === 0) delete status.active;
    }
    const job = await this.createJob(cj, jobName, scheduled, timeZone);
    if (job === undefined) return next;
    status.active = [...(status.active ?? []), this.referenceTo(job)];
    status.lastScheduleTime = formatTime(scheduled);
    return next;
  }

  /** kube's mostRecentScheduleTime: the latest activation since the last (or creation), and how many passed. */
  private mostRecent(
    cj: CronJobShape,
    schedule: CronSchedule,
    now: Date,
  ): { scheduled: Date | undefined; missed: number } {
    let earliest = Date.parse(cj.status?.lastScheduleTime ?? metaOf(cj).creationTimestamp ?? "");
    if (Number.isNaN(earliest)) earliest = now.getTime();
    const deadline = cj.spec?.startingDeadlineSeconds;
    if (deadline !== undefined) earliest = Math.max(earliest, now.getTime() - deadline * 1000);
    let scheduled: Date | undefined;
    let missed = 0;
    for (let t = schedule.next(new Date(earliest)); t.getTime() <= now.getTime(); t = schedule.next(t)) {
      scheduled = t;
      missed++;
    }
    return { scheduled, missed };
  }

  private async createJob(
    cj: CronJobShape,
    name: string,
    scheduled: Date,
    timeZone: string,
  ): Promise<JobShape | undefined> {
    const meta = metaOf(cj);
    const template = structuredClone(cj.spec?.jobTemplate ?? {});
    const owner: Owner = { object: cj as KubeObject, apiVersion: "batch/v1", kind: "CronJob", served: cronJobs };
    const job = {
      apiVersion: "batch/v1",
      kind: "Job",
      metadata: {
        name,
        namespace: meta.namespace,
        ...(template.metadata?.labels === undefined ? {} : { labels: template.metadata.labels }),
        annotations: { ...template.metadata?.annotations, [scheduledTimestampAnnotation]: inZone(scheduled, timeZone) },
        ownerReferences: [controllerRefTo(owner)],
      },
      spec: template.spec ?? {},
    } as KubeObject;
    try {
      const created = (await this.api.create({ kind: jobs, namespace: meta.namespace }, job)) as JobShape;
      this.events.record(cj, "Normal", "SuccessfulCreate", `Created job ${name}`);
      return created;
    } catch (error) {
      if (statusCode(error) === 409) return undefined;
      this.events.record(cj, "Warning", "FailedCreate", `Error creating job: ${errorText(error)}`);
      throw error;
    }
  }

  private async deleteJob(cj: CronJobShape, namespace: string, name: string): Promise<void> {
    try {
      await this.api.delete({ kind: jobs, namespace, name }, { propagationPolicy: "Background" });
      this.events.record(cj, "Normal", "SuccessfulDelete", `Deleted job ${name}`);
    } catch (error) {
      if (statusCode(error) === 404) return;
      this.events.record(cj, "Warning", "FailedDelete", `Deleted job: ${errorText(error)}`);
      throw error;
    }
  }

  /** kube's cleanupFinishedJobs: the oldest finished jobs beyond successfulJobsHistoryLimit / failedJobsHistoryLimit. */
  private async cleanupFinished(cj: CronJobShape, status: NonNullable<CronJobShape["status"]>, owned: JobShape[]) {
    const limits: ["Complete" | "Failed", number | undefined][] = [
      ["Complete", cj.spec?.successfulJobsHistoryLimit],
      ["Failed", cj.spec?.failedJobsHistoryLimit],
    ];
    const started = (job: JobShape) => Date.parse(job.status?.startTime ?? metaOf(job).creationTimestamp ?? "") || 0;
    for (const [type, limit] of limits) {
      if (limit === undefined) continue;
      const finished = owned
        .filter((job) => finishedType(job) === type && !isDeleting(job))
        .sort((a, b) => started(a) - started(b));
      for (const job of finished.slice(0, Math.max(finished.length - limit, 0))) {
        if ((status.active ?? []).some((ref) => ref.uid === metaOf(job).uid)) continue;
        await this.deleteJob(cj, metaOf(job).namespace ?? "", metaOf(job).name ?? "");
      }
    }
  }

  private async writeStatus(cj: CronJobShape, status: NonNullable<CronJobShape["status"]>): Promise<void> {
    const meta = metaOf(cj);
    const target = { kind: cronJobs, namespace: meta.namespace, name: meta.name, subresource: "status" };
    await updateExisting(this.api, target, { ...structuredClone(cj), status } as KubeObject);
  }
}
