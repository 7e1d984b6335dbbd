import { describe, expect, it } from "vitest";
import type { AdmissionAttributes } from "../../../../runtime/admission/admission.js";
import {
  type MatchInput,
  matchResources,
  type RuleRequest,
  ruleMatches,
} from "../../../../runtime/admission/policy/match-resources.js";

const request = (over: Partial<RuleRequest> = {}): RuleRequest => ({
  operation: "CREATE",
  group: "apps",
  version: "v1",
  resource: "deployments",
  subresource: "",
  namespaced: true,
  name: "web",
  ...over,
});

const input = (over: Partial<MatchInput> = {}, object: Record<string, unknown> = {}): MatchInput => ({
  attributes: { object } as unknown as AdmissionAttributes,
  candidates: [request()],
  namespaceLabels: {},
  ...over,
});

describe("ruleMatches", () => {
  const rule = { operations: ["CREATE"], apiGroups: ["apps"], apiVersions: ["v1"], resources: ["deployments"] };

  it.each([
    ["the exact resource", rule, request(), true],
    ["another operation", rule, request({ operation: "DELETE" }), false],
    ["a subresource of a listed resource", rule, request({ subresource: "scale" }), false],
    ["`*` for resources only", { ...rule, resources: ["*"] }, request({ subresource: "status" }), false],
    ["`*/*` for everything", { ...rule, resources: ["*/*"] }, request({ subresource: "status" }), true],
    ["`*/scale`", { ...rule, resources: ["*/scale"] }, request({ subresource: "scale" }), true],
    ["`deployments/*`", { ...rule, resources: ["deployments/*"] }, request({ subresource: "status" }), true],
    ["a Cluster scope for a namespaced request", { ...rule, scope: "Cluster" }, request(), false],
    ["a Namespaced scope", { ...rule, scope: "Namespaced" }, request(), true],
    ["resourceNames naming another object", { ...rule, resourceNames: ["other"] }, request(), false],
    ["wildcard groups and versions", { ...rule, apiGroups: ["*"], apiVersions: ["*"] }, request(), true],
  ])("%s", (_name, r, req, expected) => {
    expect(ruleMatches(r, req)).toBe(expected);
  });
});

describe("matchResources", () => {
  const rules = [{ operations: ["*"], apiGroups: ["apps"], apiVersions: ["v1beta2"], resources: ["deployments"] }];
  const v1beta2 = request({ version: "v1beta2" });

  it("matches an equivalent version under Equivalent and reports the version matched", () => {
    expect(matchResources({ resourceRules: rules }, input({ candidates: [request(), v1beta2] }))).toEqual(v1beta2);
  });

  it("does not under Exact", () => {
    const match = { resourceRules: rules, matchPolicy: "Exact" as const };
    expect(matchResources(match, input({ candidates: [request(), v1beta2] }))).toBeUndefined();
  });

  it("filters by namespace labels and object labels", () => {
    const match = {
      namespaceSelector: { matchLabels: { env: "prod" } },
      objectSelector: { matchExpressions: [{ key: "tier", operator: "In", values: ["web"] }] },
    };
    const web = { metadata: { labels: { tier: "web" } } };
    expect(matchResources(match, input({ namespaceLabels: { env: "prod" } }, web))).toEqual(request());
    expect(matchResources(match, input({ namespaceLabels: { env: "dev" } }, web))).toBeUndefined();
    expect(matchResources(match, input({ namespaceLabels: { env: "prod" } }, {}))).toBeUndefined();
  });

  it("ignores the namespace selector for cluster-scoped requests", () => {
    const match = { namespaceSelector: { matchLabels: { env: "prod" } } };
    expect(matchResources(match, input({ namespaceLabels: undefined }))).toEqual(request());
  });

  it("excludes what excludeResourceRules name", () => {
    const exclude = [{ operations: ["CREATE"], apiGroups: ["apps"], apiVersions: ["*"], resources: ["deployments"] }];
    expect(matchResources({ excludeResourceRules: exclude }, input())).toBeUndefined();
  });
});
