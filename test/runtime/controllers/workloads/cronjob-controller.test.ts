// The CronJob controller on a clock set just before a minute boundary: the Job it starts for the schedule
// time, named and annotated as kube-controller-manager v1.36.2 names them (`<cronjob>-<minutes since the
// epoch>`, `batch.kubernetes.io/cronjob-scheduled-timestamp`), the CronJob's status, its event, and the
// garbage collector deleting jobs and pods with the CronJob.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startControllers } from "../../../../runtime/controllers/start-controllers.js";
import type { KubeObject } from "../../../../runtime/object/kube-object.js";
import { builtinKind } from "../../../../runtime/registry/kinds.js";
import { ResourceApi } from "../../../../runtime/resources/resource-api.js";
import { MemoryStore } from "../../../../runtime/storage/memory-store.js";
import { builtinKinds } from "../../builtin-kinds.js";
import { eventually } from "../controller-harness.js";

const namespace = "h-cron";
const cronJobs = builtinKind("batch", "v1", "cronjobs");
const jobs = builtinKind("batch", "v1", "jobs");
const pods = builtinKind("", "v1", "pods");
const events = builtinKind("", "v1", "events");

describe("cronjob controller", () => {
  // Virtual time runs at real speed from 1.5 s before a minute boundary.
  const start = Date.now();
  const virtualStart = (Math.floor(start / 60_000) + 1) * 60_000 - 1500;
  const now = () => new Date(virtualStart + (Date.now() - start));
  const api = new ResourceApi({ kinds: builtinKinds(), store: new MemoryStore(), now });
  let stop: () => Promise<void>;

  beforeAll(async () => {
    const running = startControllers(api, { log: () => undefined, enabled: { systemNamespaces: true } });
    stop = running.stop;
    await running.ready;
    await api.create({ kind: builtinKind("", "v1", "namespaces") }, {
      apiVersion: "v1",
      kind: "Namespace",
      metadata: { name: namespace },
    } as KubeObject);
  });
  afterAll(async () => {
    await stop();
    api.close();
  });

  it("starts the job of the schedule time, and the garbage collector removes it with the cronjob", async () => {
    const cronJob = await api.create({ kind: cronJobs, namespace }, {
      apiVersion: "batch/v1",
      kind: "CronJob",
      metadata: { name: "simple" },
      spec: {
        schedule: "*/1 * * * ?",
        jobTemplate: {
          spec: {
            template: { spec: { restartPolicy: "OnFailure", containers: [{ name: "c", image: "busybox" }] } },
          },
        },
      },
    } as KubeObject);
    const scheduled = new Date(virtualStart + 1500);
    const jobName = `simple-${scheduled.getTime() / 60_000}`;
    const job = await eventually(async () => (await api.get({ kind: jobs, namespace, name: jobName })).object, 8000);
    const meta = job.metadata as Record<string, unknown>;
    expect(meta.annotations).toEqual({
      "batch.kubernetes.io/cronjob-scheduled-timestamp": `${scheduled.toISOString().slice(0, 19)}Z`,
    });
    expect(meta.ownerReferences).toEqual([
      {
        apiVersion: "batch/v1",
        kind: "CronJob",
        name: "simple",
        uid: (cronJob.metadata as { uid: string }).uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    await eventually(async () => {
      const status = (await api.get({ kind: cronJobs, namespace, name: "simple" })).object.status as Record<
        string,
        unknown
      >;
      expect(status).toEqual({
        active: [
          {
            apiVersion: "batch/v1",
            kind: "Job",
            name: jobName,
            namespace,
            resourceVersion: expect.any(String),
            uid: (job.metadata as { uid: string }).uid,
          },
        ],
        lastScheduleTime: `${scheduled.toISOString().slice(0, 19)}Z`,
      });
    });
    await eventually(async () => expect((await api.list({ kind: pods, namespace })).items).toHaveLength(1));
    const recorded = (await api.list({ kind: events, namespace })).items
      .map((item) => item.object as { reason?: string; message?: string; source?: { component?: string } })
      .filter((e) => e.source?.component === "cronjob-controller")
      .map((e) => [e.reason, e.message]);
    expect(recorded).toEqual([["SuccessfulCreate", `Created job ${jobName}`]]);
    await api.delete({ kind: cronJobs, namespace, name: "simple" }, { propagationPolicy: "Background" });
    await eventually(async () => {
      expect((await api.list({ kind: jobs, namespace })).items).toHaveLength(0);
      expect((await api.list({ kind: pods, namespace })).items).toHaveLength(0);
    }, 8000);
  });
});
