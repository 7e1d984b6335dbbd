import { describe, expect, it } from "vitest";
import { createErrors, type Kind, strategyOf } from "./write-path.js";

const ClusterRole: Kind = ["rbac.authorization.k8s.io", "v1", "ClusterRole"];

describe("cluster-role strategy", () => {
  it("allows non-resource URLs, but not mixed with resources", () => {
    expect(
      createErrors(ClusterRole, {
        metadata: { name: "health" },
        rules: [{ nonResourceURLs: ["/healthz"], verbs: ["get"] }],
      }),
    ).toEqual([]);
    expect(
      createErrors(ClusterRole, {
        metadata: { name: "mixed" },
        rules: [{ nonResourceURLs: ["/healthz"], resources: ["pods"], verbs: ["get"] }],
      }),
    ).toEqual([
      'rules[0].nonResourceURLs: Invalid value: ["/healthz"]: rules cannot apply to both regular resources and non-resource URLs',
    ]);
  });

  it("needs a selector in an aggregation rule", () => {
    expect(
      createErrors(ClusterRole, { metadata: { name: "agg" }, aggregationRule: { clusterRoleSelectors: [] } }),
    ).toEqual([
      "aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil",
    ]);
    const selectors = [{ matchLabels: { "rbac.example.com/aggregate": "true" } }];
    expect(
      createErrors(ClusterRole, { metadata: { name: "agg" }, aggregationRule: { clusterRoleSelectors: selectors } }),
    ).toEqual([]);
  });

  it("creates a missing cluster role on PUT", () => {
    expect(strategyOf(ClusterRole).allowCreateOnUpdate).toBe(true);
  });
});
