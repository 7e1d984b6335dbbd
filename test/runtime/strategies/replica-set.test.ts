import { describe, expect, it } from "vitest";
import { created, createErrors, type Kind, updateErrors, workload } from "./write-path.js";

const ReplicaSet: Kind = ["apps", "v1", "ReplicaSet"];
const replicaSet = (spec: Record<string, unknown> = {}) => workload("web", spec);

describe("replica-set strategy", () => {
  it("defaults replicas and accepts a valid replica set", () => {
    expect((created(ReplicaSet, replicaSet()).spec as { replicas: number }).replicas).toBe(1);
    expect(createErrors(ReplicaSet, replicaSet())).toEqual([]);
  });

  it("checks the selector, the template and the counts", () => {
    expect(createErrors(ReplicaSet, replicaSet({ replicas: -2, selector: { matchLabels: {} } }))).toEqual([
      "spec.replicas: Invalid value: -2: must be greater than or equal to 0",
      'spec.selector: Invalid value: {"matchLabels":{}}: empty selector is invalid for deployment',
    ]);
    expect(
      createErrors(
        ReplicaSet,
        replicaSet({ selector: { matchExpressions: [{ key: "app", operator: "In", values: [] }] } }),
      ),
    ).toEqual([
      "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
      'spec.selector: Invalid value: {"matchExpressions":[{"key":"app","operator":"In","values":[]}]}: invalid label selector',
    ]);
  });

  it("keeps the selector once created", () => {
    const old = created(ReplicaSet, replicaSet());
    const next = replicaSet({ selector: { matchExpressions: [{ key: "app", operator: "Exists" }] } });
    expect(updateErrors(ReplicaSet, next, old)).toHaveLength(1);
    expect(updateErrors(ReplicaSet, replicaSet({ replicas: 3 }), old)).toEqual([]);
  });
});
