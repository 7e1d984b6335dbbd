import { describe, expect, it } from "vitest";
import { created, createErrors, type Kind, strategyOf, updateErrors } from "./write-path.js";

const Job: Kind = ["batch", "v1", "Job"];
const job = (spec: Record<string, unknown> = {}): Record<string, unknown> => ({
  metadata: { name: "pi", namespace: "default", uid: "0c7f6b1e-0000-4000-8000-000000000001" },
  spec: {
    template: { spec: { containers: [{ name: "pi", image: "perl" }], restartPolicy: "Never" } },
    ...spec,
  },
});

describe("job strategy", () => {
  it("defaults counts and generates the selector from the job's uid", () => {
    const j = created(Job, job());
    const uid = "0c7f6b1e-0000-4000-8000-000000000001";
    expect(j.spec).toMatchObject({
      completions: 1,
      parallelism: 1,
      backoffLimit: 6,
      completionMode: "NonIndexed",
      suspend: false,
      selector: { matchLabels: { "batch.kubernetes.io/controller-uid": uid } },
      template: {
        metadata: {
          labels: {
            "batch.kubernetes.io/controller-uid": uid,
            "batch.kubernetes.io/job-name": "pi",
            "controller-uid": uid,
            "job-name": "pi",
          },
        },
      },
    });
    expect(createErrors(Job, job())).toEqual([]);
  });

  it("wants pods that do not restart always", () => {
    const spec = { template: { spec: { containers: [{ name: "pi", image: "perl" }] } } };
    expect(createErrors(Job, job(spec))).toEqual([
      'spec.template.spec.restartPolicy: Unsupported value: "Always": supported values: "OnFailure", "Never"',
    ]);
  });

  it("keeps the selector and the template of a running job", () => {
    const old = created(Job, job());
    const next = structuredClone(old);
    (next.spec as { template: { spec: { containers: [{ image: string }] } } }).template.spec.containers[0].image =
      "perl:5";
    expect(updateErrors(Job, next, old)).toHaveLength(1);
    expect(updateErrors(Job, next, old)[0]).toMatch(/^spec\.template: Invalid value: .*: field is immutable$/);
  });

  it("orphans its pods by default", () => {
    expect(strategyOf(Job).defaultPropagationPolicy).toBe("Orphan");
  });
});
