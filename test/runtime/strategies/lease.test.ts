import { describe, expect, it } from "vitest";
import { createErrors, type Kind, strategyOf } from "./write-path.js";

const Lease: Kind = ["coordination.k8s.io", "v1", "Lease"];
const lease = (spec: Record<string, unknown>): Record<string, unknown> => ({
  metadata: { name: "leader", namespace: "kube-system" },
  spec,
});

describe("lease strategy", () => {
  it("accepts a held lease", () => {
    expect(createErrors(Lease, lease({ holderIdentity: "a", leaseDurationSeconds: 15, leaseTransitions: 0 }))).toEqual(
      [],
    );
  });

  it("checks durations, transitions and the strategy", () => {
    expect(
      createErrors(
        Lease,
        lease({ leaseDurationSeconds: 0, leaseTransitions: -1, strategy: "Newest", preferredHolder: "b" }),
      ),
    ).toEqual([
      "spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0",
      "spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0",
      'spec.strategy.strategy: Unsupported value: "Newest": supported values: "OldestEmulationVersion"',
    ]);
    expect(createErrors(Lease, lease({ preferredHolder: "b" }))).toEqual([
      "spec.preferredHolder: Forbidden: may only be specified if `strategy` is defined",
    ]);
    expect(createErrors(Lease, lease({ strategy: "example.com/mine" }))).toEqual([]);
  });

  it("creates a missing lease on PUT", () => {
    expect(strategyOf(Lease).allowCreateOnUpdate).toBe(true);
  });
});
