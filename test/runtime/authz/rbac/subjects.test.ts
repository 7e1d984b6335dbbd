import { describe, expect, it } from "vitest";
import { matchingSubject, type Subject, subjectMatches } from "../../../../runtime/authz/rbac/subjects.js";

const jane = { name: "jane", groups: ["dev", "system:authenticated"] };
const sa = { name: "system:serviceaccount:ns1:builder", groups: ["system:serviceaccounts"] };

describe("binding subjects", () => {
  it.each<[string, typeof jane, Subject, string, boolean]>([
    ["a user by name", jane, { kind: "User", name: "jane" }, "", true],
    ["names are case-sensitive", jane, { kind: "User", name: "Jane" }, "", false],
    ["a group the user is in", jane, { kind: "Group", name: "dev" }, "", true],
    ["a group the user is not in", jane, { kind: "Group", name: "ops" }, "", false],
    ["a group named as the user", jane, { kind: "Group", name: "jane" }, "", false],
    [
      "a service account with its namespace",
      sa,
      { kind: "ServiceAccount", name: "builder", namespace: "ns1" },
      "",
      true,
    ],
    [
      "a service account of another namespace",
      sa,
      { kind: "ServiceAccount", name: "builder", namespace: "ns2" },
      "ns1",
      false,
    ],
    ["a service account in the binding's namespace", sa, { kind: "ServiceAccount", name: "builder" }, "ns1", true],
    ["a service account without any namespace", sa, { kind: "ServiceAccount", name: "builder" }, "", false],
    [
      "a service account by another name",
      sa,
      { kind: "ServiceAccount", name: "deployer", namespace: "ns1" },
      "",
      false,
    ],
    ["a user named as the service account", sa, { kind: "User", name: "system:serviceaccount:ns1:builder" }, "", true],
    ["another kind", jane, { kind: "Robot", name: "jane" }, "", false],
  ])("%s", (_name, user, subject, namespace, matches) => {
    expect(subjectMatches(user, subject, namespace)).toBe(matches);
  });

  it("finds the first subject that matches", () => {
    const subjects: Subject[] = [
      { kind: "User", name: "joe" },
      { kind: "Group", name: "dev" },
      { kind: "User", name: "jane" },
    ];
    expect(matchingSubject(jane, subjects, "")).toBe(subjects[1]);
    expect(matchingSubject(jane, undefined, "")).toBeUndefined();
  });
});
