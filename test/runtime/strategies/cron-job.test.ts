import { describe, expect, it } from "vitest";
import { created, createErrors, type Kind } from "./write-path.js";

const CronJob: Kind = ["batch", "v1", "CronJob"];
const cronJob = (podSpec: Record<string, unknown>): Record<string, unknown> => ({
  metadata: { name: "tick", namespace: "default" },
  spec: { schedule: "* * * * *", jobTemplate: { spec: { template: { spec: podSpec } } } },
});

describe("cron-job strategy", () => {
  it("defaults the schedule policy and accepts a valid cron job", () => {
    const c = created(CronJob, cronJob({ containers: [{ name: "t", image: "busybox" }], restartPolicy: "OnFailure" }));
    expect(c.spec).toMatchObject({ concurrencyPolicy: "Allow", suspend: false, successfulJobsHistoryLimit: 3 });
    expect(
      createErrors(CronJob, cronJob({ containers: [{ name: "t", image: "busybox" }], restartPolicy: "OnFailure" })),
    ).toEqual([]);
  });

  it("checks the job template's pods", () => {
    expect(createErrors(CronJob, cronJob({ containers: [{ name: "t" }] }))).toEqual([
      "spec.jobTemplate.spec.template.spec.containers[0].image: Required value",
      'spec.jobTemplate.spec.template.spec.restartPolicy: Unsupported value: "Always": supported values: "OnFailure", "Never"',
    ]);
  });
});
