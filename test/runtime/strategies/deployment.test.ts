import { describe, expect, it } from "vitest";
import { created, createErrors, type Kind, updateErrors, workload } from "./write-path.js";

const Deployment: Kind = ["apps", "v1", "Deployment"];
const deployment = (spec: Record<string, unknown> = {}) => workload("web", spec);

describe("deployment strategy", () => {
  it("defaults the template and the rollout, and accepts a valid deployment", () => {
    const d = created(Deployment, deployment());
    expect(d.spec).toMatchObject({
      replicas: 1,
      strategy: { type: "RollingUpdate", rollingUpdate: { maxSurge: "25%", maxUnavailable: "25%" } },
      template: { spec: { containers: [{ imagePullPolicy: "Always" }] } },
    });
    expect(createErrors(Deployment, deployment())).toEqual([]);
  });

  it("requires the template's labels to match the selector", () => {
    expect(createErrors(Deployment, deployment({ selector: { matchLabels: { app: "other" } } }))).toEqual([
      'spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`',
    ]);
  });

  it("rejects an empty or missing selector", () => {
    expect(createErrors(Deployment, deployment({ selector: {} }))).toEqual([
      "spec.selector: Invalid value: {}: empty selector is invalid for deployment",
    ]);
    const { selector: _, ...rest } = deployment().spec as Record<string, unknown>;
    expect(createErrors(Deployment, { metadata: { name: "web" }, spec: rest })).toEqual([
      "spec.selector: Required value",
      'spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`',
    ]);
  });

  it("checks counts, the rollout and the pod template", () => {
    const spec = {
      replicas: -1,
      strategy: { type: "RollingUpdate", rollingUpdate: { maxSurge: 0, maxUnavailable: "120%" } },
      progressDeadlineSeconds: 5,
      minReadySeconds: 10,
    };
    const template = deployment().spec as { template: { spec: Record<string, unknown> } };
    template.template.spec.restartPolicy = "Never";
    expect(createErrors(Deployment, deployment({ ...spec, template: template.template }))).toEqual([
      "spec.replicas: Invalid value: -1: must be greater than or equal to 0",
      'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"',
      'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "120%": must not be greater than 100%',
      "spec.progressDeadlineSeconds: Invalid value: 5: must be greater than minReadySeconds",
    ]);
    expect(
      createErrors(Deployment, deployment({ strategy: { type: "Recreate", rollingUpdate: { maxSurge: 1 } } })),
    ).toEqual(["spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'"]);
  });

  it("keeps the selector once created", () => {
    const old = created(Deployment, deployment());
    const next = deployment({ selector: { matchLabels: { app: "web", tier: "x" } } });
    (next.spec as { template: { metadata: { labels: Record<string, string> } } }).template.metadata.labels.tier = "x";
    expect(updateErrors(Deployment, next, old)).toEqual([
      'spec.selector: Invalid value: {"matchLabels":{"app":"web","tier":"x"}}: field is immutable',
    ]);
  });
});
