import { describe, expect, it } from "vitest";
import { createErrors, type Kind, strategyOf } from "./write-path.js";

const Role: Kind = ["rbac.authorization.k8s.io", "v1", "Role"];
const role = (rules: unknown[]): Record<string, unknown> => ({
  metadata: { name: "reader", namespace: "default" },
  rules,
});

describe("role strategy", () => {
  it("accepts resource rules", () => {
    expect(createErrors(Role, role([{ apiGroups: [""], resources: ["pods"], verbs: ["get", "list"] }]))).toEqual([]);
  });

  it("words kube's policy rule checks", () => {
    expect(createErrors(Role, role([{ verbs: [] }]))).toEqual([
      "rules[0].verbs: Required value: verbs must contain at least one value",
      "rules[0].apiGroups: Required value: resource rules must supply at least one api group",
      "rules[0].resources: Required value: resource rules must supply at least one resource",
    ]);
    expect(
      createErrors(
        Role,
        role([{ apiGroups: [""], resources: ["pods", "secrets"], resourceNames: ["a"], verbs: ["get"] }]),
      ),
    ).toEqual(["rules[0].resourceNames: Required value: resource names cannot apply to multiple resources"]);
    expect(createErrors(Role, role([{ nonResourceURLs: ["/healthz"], verbs: ["get"] }]))).toEqual([
      'rules[0].nonResourceURLs: Invalid value: ["/healthz"]: namespaced rules cannot apply to non-resource URLs',
    ]);
  });

  it("creates a missing role on PUT", () => {
    expect(strategyOf(Role).allowCreateOnUpdate).toBe(true);
  });
});
