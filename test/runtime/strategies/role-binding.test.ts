import { describe, expect, it } from "vitest";
import { created, createErrors, type Kind, strategyOf, updateErrors } from "./write-path.js";

const RoleBinding: Kind = ["rbac.authorization.k8s.io", "v1", "RoleBinding"];
const binding = (fields: Record<string, unknown>): Record<string, unknown> => ({
  metadata: { name: "b", namespace: "default" },
  roleRef: { kind: "Role", name: "reader" },
  ...fields,
});

describe("role-binding strategy", () => {
  it("defaults the role's group and the API group of users and groups", () => {
    const b = created(
      RoleBinding,
      binding({
        subjects: [
          { kind: "User", name: "alice" },
          { kind: "ServiceAccount", name: "sa" },
        ],
      }),
    );
    expect(b.roleRef).toEqual({ apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "reader" });
    expect(b.subjects).toEqual([
      { kind: "User", name: "alice", apiGroup: "rbac.authorization.k8s.io" },
      { kind: "ServiceAccount", name: "sa" },
    ]);
    expect(createErrors(RoleBinding, binding({ subjects: [{ kind: "User", name: "alice" }] }))).toEqual([]);
  });

  it("checks the role reference and the subjects", () => {
    expect(
      createErrors(
        RoleBinding,
        binding({
          roleRef: { apiGroup: "example.com", kind: "Thing", name: "a/b" },
          subjects: [
            { kind: "Robot", name: "r" },
            { kind: "ServiceAccount", name: "Bad_Name", apiGroup: "x" },
          ],
        }),
      ),
    ).toEqual([
      'roleRef.apiGroup: Unsupported value: "example.com": supported values: "rbac.authorization.k8s.io"',
      'roleRef.kind: Unsupported value: "Thing": supported values: "Role", "ClusterRole"',
      "roleRef.name: Invalid value: \"a/b\": may not contain '/'",
      'subjects[0].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"',
      `subjects[1].name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      'subjects[1].apiGroup: Unsupported value: "x": supported values: ""',
    ]);
  });

  it("may not change its role", () => {
    const old = created(RoleBinding, binding({}));
    expect(updateErrors(RoleBinding, binding({ roleRef: { kind: "ClusterRole", name: "reader" } }), old)).toEqual([
      'roleRef: Invalid value: {"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":"reader"}: cannot change roleRef',
    ]);
  });

  it("creates a missing binding on PUT", () => {
    expect(strategyOf(RoleBinding).allowCreateOnUpdate).toBe(true);
  });
});
