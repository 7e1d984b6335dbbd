import { describe, expect, it } from "vitest";
import {
  breakdownRule,
  compactRules,
  compactString,
  escalationMessage,
  uncoveredRules,
} from "../../../../runtime/authz/rbac/escalation.js";
import type { PolicyRule } from "../../../../runtime/authz/rbac/rule-matches.js";

const podsGet: PolicyRule = { verbs: ["get"], apiGroups: [""], resources: ["pods"] };

describe("covering rules", () => {
  it.each<[string, PolicyRule[], PolicyRule, boolean]>([
    ["the same rule", [podsGet], podsGet, true],
    ["fewer verbs", [{ ...podsGet, verbs: ["get", "list"] }], podsGet, true],
    ["a verb not held", [podsGet], { ...podsGet, verbs: ["get", "delete"] }, false],
    [
      "split over two held rules",
      [podsGet, { ...podsGet, verbs: ["list"] }],
      { ...podsGet, verbs: ["get", "list"] },
      true,
    ],
    ["verb *", [{ ...podsGet, verbs: ["*"] }], { ...podsGet, verbs: ["escalate"] }, true],
    ["a granted * needs a held *", [{ ...podsGet, verbs: ["get", "list"] }], { ...podsGet, verbs: ["*"] }, false],
    ["group *", [{ ...podsGet, apiGroups: ["*"] }], { ...podsGet, apiGroups: ["apps"] }, true],
    ["another group", [podsGet], { ...podsGet, apiGroups: ["apps"] }, false],
    ["resource *", [{ ...podsGet, resources: ["*"] }], { ...podsGet, resources: ["pods/log"] }, true],
    ["a subresource is not its resource", [podsGet], { ...podsGet, resources: ["pods/log"] }, false],
    ["*/subresource", [{ ...podsGet, resources: ["*/scale"] }], { ...podsGet, resources: ["deployments/scale"] }, true],
    [
      "*/subresource and the resource",
      [{ ...podsGet, resources: ["*/scale"] }],
      { ...podsGet, resources: ["deployments"] },
      false,
    ],
    [
      "*/subresource, another subresource",
      [{ ...podsGet, resources: ["*/scale"] }],
      { ...podsGet, resources: ["pods/log"] },
      false,
    ],
    ["names under no names", [podsGet], { ...podsGet, resourceNames: ["a", "b"] }, true],
    [
      "names under the same names",
      [{ ...podsGet, resourceNames: ["a", "b"] }],
      { ...podsGet, resourceNames: ["a"] },
      true,
    ],
    ["a name not held", [{ ...podsGet, resourceNames: ["a"] }], { ...podsGet, resourceNames: ["a", "b"] }, false],
    ["every name under some names", [{ ...podsGet, resourceNames: ["a"] }], podsGet, false],
    [
      "an exact URL",
      [{ verbs: ["get"], nonResourceURLs: ["/metrics"] }],
      { verbs: ["get"], nonResourceURLs: ["/metrics"] },
      true,
    ],
    [
      "a URL prefix",
      [{ verbs: ["get"], nonResourceURLs: ["/logs/*"] }],
      { verbs: ["get"], nonResourceURLs: ["/logs/a/b"] },
      true,
    ],
    [
      "a URL prefix and a wider prefix",
      [{ verbs: ["get"], nonResourceURLs: ["/logs/*"] }],
      { verbs: ["get"], nonResourceURLs: ["/lo*"] },
      false,
    ],
    ["URL *", [{ verbs: ["*"], nonResourceURLs: ["*"] }], { verbs: ["post"], nonResourceURLs: ["/x"] }, true],
    [
      "a URL under resource rules",
      [{ verbs: ["*"], apiGroups: ["*"], resources: ["*"] }],
      { verbs: ["get"], nonResourceURLs: ["/x"] },
      false,
    ],
    ["resources under URL rules", [{ verbs: ["*"], nonResourceURLs: ["*"] }], podsGet, false],
    ["a rule granting nothing", [], { verbs: ["get"], apiGroups: [], resources: ["pods"] }, true],
  ])("%s", (_name, held, granted, covered) => {
    expect(uncoveredRules(held, [granted]).length === 0).toBe(covered);
  });

  it("breaks rules down to one verb, group, resource and name", () => {
    expect(
      breakdownRule({ verbs: ["get", "list"], apiGroups: ["", "apps"], resources: ["pods"], resourceNames: ["a"] }),
    ).toEqual([
      { verbs: ["get"], apiGroups: [""], resources: ["pods"], resourceNames: ["a"] },
      { verbs: ["list"], apiGroups: [""], resources: ["pods"], resourceNames: ["a"] },
      { verbs: ["get"], apiGroups: ["apps"], resources: ["pods"], resourceNames: ["a"] },
      { verbs: ["list"], apiGroups: ["apps"], resources: ["pods"], resourceNames: ["a"] },
    ]);
    expect(breakdownRule({ verbs: ["get", "post"], nonResourceURLs: ["/a"] })).toEqual([
      { verbs: ["get"], nonResourceURLs: ["/a"] },
      { verbs: ["post"], nonResourceURLs: ["/a"] },
    ]);
  });

  it("compacts simple rules that differ only in their verb", () => {
    const missing = uncoveredRules(
      [],
      [
        { verbs: ["get", "list"], apiGroups: [""], resources: ["pods", "secrets"] },
        { verbs: ["get", "update"], apiGroups: [""], resources: ["configmaps"], resourceNames: ["a", "b"] },
        { verbs: ["get"], nonResourceURLs: ["/x"] },
      ],
    );
    expect(compactRules(missing).map(compactString).sort()).toEqual([
      '{APIGroups:[""], Resources:["configmaps"], ResourceNames:["a"], Verbs:["get" "update"]}',
      '{APIGroups:[""], Resources:["configmaps"], ResourceNames:["b"], Verbs:["get" "update"]}',
      '{APIGroups:[""], Resources:["pods"], Verbs:["get" "list"]}',
      '{APIGroups:[""], Resources:["secrets"], Verbs:["get" "list"]}',
      '{NonResourceURLs:["/x"], Verbs:["get"]}',
    ]);
  });
});

describe("the escalation message", () => {
  const user = { name: "jane", groups: ["dev", "system:authenticated"] };

  it("is absent when the held rules cover", () => {
    expect(escalationMessage(user, { rules: [podsGet], errors: [] }, [podsGet])).toBeUndefined();
  });

  it("lists what is missing, sorted, in kube's words", () => {
    const granted: PolicyRule[] = [
      { verbs: ["get", "delete"], apiGroups: [""], resources: ["pods"] },
      { verbs: ["list"], apiGroups: ["apps"], resources: ["deployments"] },
    ];
    expect(escalationMessage(user, { rules: [podsGet], errors: [] }, granted)).toBe(
      'user "jane" (groups=["dev" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
        '{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}\n' +
        '{APIGroups:["apps"], Resources:["deployments"], Verbs:["list"]}',
    );
  });

  it("adds the roles that failed to resolve, named as storage names them", () => {
    const errors = [
      { roleRef: { kind: "Role", name: "a" }, namespace: "ns" },
      { roleRef: { kind: "ClusterRole", name: "b" }, namespace: "" },
    ];
    expect(escalationMessage(user, { rules: [], errors: errors.slice(0, 1) }, [podsGet])).toMatch(
      /; resolution errors: \[roles\.rbac\.authorization\.k8s\.io "a" not found\]$/,
    );
    expect(escalationMessage(user, { rules: [], errors }, [podsGet])).toMatch(
      /; resolution errors: \[\[roles\.rbac\.authorization\.k8s\.io "a" not found, clusterroles\.rbac\.authorization\.k8s\.io "b" not found\]\]$/,
    );
  });
});
