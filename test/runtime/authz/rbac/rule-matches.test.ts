import { describe, expect, it } from "vitest";
import type { Attributes } from "../../../../runtime/access/authorizer.js";
import { type PolicyRule, ruleAllows } from "../../../../runtime/authz/rbac/rule-matches.js";

function resource(verb: string, group: string, res: string, sub = "", name = ""): Attributes {
  return {
    user: { name: "u", groups: [] },
    verb,
    resourceRequest: true,
    apiGroup: group,
    apiVersion: "v1",
    resource: res,
    subresource: sub,
    namespace: "ns",
    name,
    path: "",
  };
}

function path(verb: string, p: string): Attributes {
  return { ...resource(verb, "", ""), resourceRequest: false, path: p };
}

describe("ruleAllows", () => {
  const pods: PolicyRule = { verbs: ["get", "list"], apiGroups: [""], resources: ["pods"] };
  it.each<[string, PolicyRule, Attributes, boolean]>([
    ["exact resource", pods, resource("get", "", "pods"), true],
    ["other verb", pods, resource("delete", "", "pods"), false],
    ["other group", pods, resource("get", "apps", "pods"), false],
    ["subresource not covered by its parent", pods, resource("get", "", "pods", "log"), false],
    [
      "named subresource",
      { verbs: ["get"], apiGroups: [""], resources: ["pods/log"] },
      resource("get", "", "pods", "log"),
      true,
    ],
    [
      "*/subresource",
      { verbs: ["get"], apiGroups: [""], resources: ["*/scale"] },
      resource("get", "", "deployments", "scale"),
      true,
    ],
    [
      "*/subresource and no subresource",
      { verbs: ["get"], apiGroups: [""], resources: ["*/scale"] },
      resource("get", "", "deployments"),
      false,
    ],
    [
      "wildcards",
      { verbs: ["*"], apiGroups: ["*"], resources: ["*"] },
      resource("patch", "apps", "deployments", "status"),
      true,
    ],
    ["resource name", { ...pods, resourceNames: ["a"] }, resource("get", "", "pods", "", "a"), true],
    ["other resource name", { ...pods, resourceNames: ["a"] }, resource("get", "", "pods", "", "b"), false],
    ["resource names and a list", { ...pods, resourceNames: ["a"] }, resource("list", "", "pods"), false],
    ["a resource rule for a path", pods, path("get", "/healthz"), false],
    ["exact path", { verbs: ["get"], nonResourceURLs: ["/healthz"] }, path("get", "/healthz"), true],
    ["prefix path", { verbs: ["get"], nonResourceURLs: ["/healthz/*"] }, path("get", "/healthz/ping"), true],
    ["prefix path and its root", { verbs: ["get"], nonResourceURLs: ["/healthz/*"] }, path("get", "/healthz"), false],
    ["every path", { verbs: ["get"], nonResourceURLs: ["*"] }, path("get", "/metrics"), true],
    ["a path rule for a resource", { verbs: ["get"], nonResourceURLs: ["*"] }, resource("get", "", "pods"), false],
  ])("%s", (_what, rule, attributes, allowed) => {
    expect(ruleAllows(attributes, rule)).toBe(allowed);
  });
});
