import { describe, expect, it } from "vitest";
import { type AuditAttributes, evaluatePolicy, type Policy, parsePolicy } from "../../../runtime/audit/audit-policy.js";

const resource = (over: Partial<AuditAttributes> = {}): AuditAttributes => ({
  user: { name: "jane", groups: ["devs", "system:authenticated"] },
  verb: "get",
  resourceRequest: true,
  path: "/api/v1/namespaces/ns/pods/web",
  namespace: "ns",
  apiGroup: "",
  resource: "pods",
  subresource: "",
  name: "web",
  ...over,
});
const nonResource = (path: string): AuditAttributes => ({
  ...resource(),
  resourceRequest: false,
  path,
  namespace: "",
  resource: "",
  name: "",
});
const level = (policy: Policy, attrs: AuditAttributes) => evaluatePolicy(policy, attrs).level;

describe("audit policy evaluation", () => {
  it("takes the first matching rule, else None", () => {
    const policy: Policy = {
      rules: [
        { level: "Request", users: ["bob"] },
        { level: "Metadata", verbs: ["get"] },
      ],
    };
    expect(level(policy, resource())).toBe("Metadata");
    expect(level(policy, resource({ user: { name: "bob", groups: [] } }))).toBe("Request");
    expect(level(policy, resource({ verb: "list" }))).toBe("None");
  });

  it('matches userGroups, namespaces ("" for cluster-scoped) and resourceNames', () => {
    expect(level({ rules: [{ level: "Request", userGroups: ["devs"] }] }, resource())).toBe("Request");
    expect(level({ rules: [{ level: "Request", userGroups: ["ops"] }] }, resource())).toBe("None");
    const clusterScoped = { rules: [{ level: "Request" as const, namespaces: [""] }] };
    expect(level(clusterScoped, resource({ namespace: "" }))).toBe("Request");
    expect(level(clusterScoped, resource())).toBe("None");
    const named = {
      rules: [{ level: "Request" as const, resources: [{ group: "", resources: ["pods"], resourceNames: ["web"] }] }],
    };
    expect(level(named, resource())).toBe("Request");
    expect(level(named, resource({ name: "db" }))).toBe("None");
  });

  it("matches `*`, `pods/*`, `*/status` and a group wildcard", () => {
    const rule = (resources: string[], group = "") => ({
      rules: [{ level: "Metadata" as const, resources: [{ group, resources }] }],
    });
    const status = resource({ subresource: "status" });
    expect(level(rule(["pods"]), status)).toBe("None");
    expect(level(rule(["pods/status"]), status)).toBe("Metadata");
    expect(level(rule(["pods/*"]), status)).toBe("Metadata");
    expect(level(rule(["*/status"]), status)).toBe("Metadata");
    expect(level(rule(["*/status"]), resource())).toBe("None");
    expect(level(rule(["*"]), status)).toBe("Metadata");
    expect(level(rule(["deployments"], "*"), resource({ apiGroup: "apps", resource: "deployments" }))).toBe("Metadata");
    expect(level(rule(["deployments"], ""), resource({ apiGroup: "apps", resource: "deployments" }))).toBe("None");
  });

  it("matches nonResourceURLs exactly or by a trailing `*`, never resource requests", () => {
    const policy: Policy = { rules: [{ level: "Metadata", nonResourceURLs: ["/healthz*", "/version"] }] };
    expect(level(policy, nonResource("/healthz/etcd"))).toBe("Metadata");
    expect(level(policy, nonResource("/version"))).toBe("Metadata");
    expect(level(policy, nonResource("/versions"))).toBe("None");
    expect(level(policy, resource())).toBe("None");
  });

  it("adds the policy's omitStages to every rule's, and lets a rule override omitManagedFields", () => {
    const policy: Policy = {
      omitStages: ["RequestReceived"],
      omitManagedFields: true,
      rules: [
        { level: "Request", verbs: ["get"], omitStages: ["ResponseStarted"], omitManagedFields: false },
        { level: "Metadata" },
      ],
    };
    expect(evaluatePolicy(policy, resource())).toEqual({
      level: "Request",
      omitStages: ["RequestReceived", "ResponseStarted"],
      omitManagedFields: false,
    });
    expect(evaluatePolicy(policy, resource({ verb: "list" }))).toEqual({
      level: "Metadata",
      omitStages: ["RequestReceived"],
      omitManagedFields: true,
    });
  });
});

describe("audit policy files", () => {
  it("reads YAML and JSON", () => {
    const yaml = "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n  omitManagedFields: true\n";
    expect(parsePolicy(yaml)).toEqual({
      rules: [{ level: "Metadata", omitManagedFields: true }],
      omitStages: [],
      omitManagedFields: false,
    });
    expect(parsePolicy('{"apiVersion":"audit.k8s.io/v1","kind":"Policy","rules":[{"level":"None"}]}').rules).toEqual([
      { level: "None" },
    ]);
  });

  it("falls back to lenient decoding on unknown fields, with kube's warning", () => {
    const warnings: string[] = [];
    const policy = parsePolicy(
      "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: None\n  color: red\n",
      (w) => warnings.push(w),
    );
    expect(policy.rules).toEqual([{ level: "None" }]);
    expect(warnings).toEqual([
      'Audit policy contains errors, falling back to lenient decoding: strict decoding error: unknown field "rules[0].color"',
    ]);
  });

  it("refuses invalid policies with kube's texts", () => {
    const head = "apiVersion: audit.k8s.io/v1\nkind: Policy\n";
    expect(() => parsePolicy(`${head}rules: []\n`)).toThrow("loaded illegal policy with 0 rules");
    expect(() => parsePolicy(`${head}rules:\n- level: Loud\n`)).toThrow(
      'rules[0].level: Unsupported value: "Loud": supported values: "None", "Metadata", "Request", "RequestResponse"',
    );
    expect(() => parsePolicy(`${head}omitStages: [Later]\nrules:\n- level: None\n`)).toThrow(
      'omitStages[0]: Invalid value: "Later": allowed stages are RequestReceived,ResponseStarted,ResponseComplete,Panic',
    );
    expect(() => parsePolicy(`${head}rules:\n- level: None\n  nonResourceURLs: ["healthz", "/a*b"]\n`)).toThrow(
      `[rules[0].nonResourceURLs[0]: Invalid value: "healthz": non-resource URL rules must begin with a '/' character, rules[0].nonResourceURLs[1]: Invalid value: "/a*b": non-resource URL wildcards '*' must be the final character of the rule]`,
    );
    expect(() => parsePolicy(`${head}rules:\n- level: None\n  nonResourceURLs: ["/x"]\n  namespaces: ["a"]\n`)).toThrow(
      'rules[0].nonResourceURLs: Invalid value: ["/x"]: rules cannot apply to both regular resources and non-resource URLs',
    );
    expect(() => parsePolicy(`${head}rules:\n- level: None\n  resources: [{resourceNames: [a]}]\n`)).toThrow(
      'rules[0].resources.resourceNames: Invalid value: ["a"]: using resourceNames requires at least one resource',
    );
    expect(() => parsePolicy("apiVersion: audit.k8s.io/v2\nkind: Policy\nrules: []\n")).toThrow("failed decoding");
  });
});
