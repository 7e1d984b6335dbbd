import { describe, expect, it } from "vitest";
import { createErrors, type Kind, strategyOf } from "./write-path.js";

const ClusterRoleBinding: Kind = ["rbac.authorization.k8s.io", "v1", "ClusterRoleBinding"];

describe("cluster-role-binding strategy", () => {
  it("binds only cluster roles, and service accounts with their namespace", () => {
    expect(
      createErrors(ClusterRoleBinding, {
        metadata: { name: "b" },
        roleRef: { kind: "Role", name: "reader" },
        subjects: [
          { kind: "ServiceAccount", name: "sa" },
          { kind: "Group", name: "" },
        ],
      }),
    ).toEqual([
      'roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"',
      "subjects[0].namespace: Required value",
      "subjects[1].name: Required value",
      'subjects[1].name: Invalid value: "": group name cannot be empty',
    ]);
  });

  it("creates a missing binding on PUT", () => {
    expect(strategyOf(ClusterRoleBinding).allowCreateOnUpdate).toBe(true);
  });
});
