import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { AbacAuthorizer, loadPolicyFile, parsePolicyLine } from "../../../runtime/authz/abac.js";
import { pathRequest, resourceRequest } from "./authz-fixtures.js";

const dir = mkdtempSync(join(tmpdir(), "kapi-abac-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function policyFile(lines: string[]): string {
  const path = join(dir, `policy-${Math.random().toString(36).slice(2)}.jsonl`);
  writeFileSync(path, `${lines.join("\n")}\n`);
  return path;
}

const v1beta1 = (spec: Record<string, unknown>) =>
  JSON.stringify({ apiVersion: "abac.authorization.kubernetes.io/v1beta1", kind: "Policy", spec });

// kube's documented example policy file.
const example = [
  "# everyone authenticated may read non-resource paths",
  v1beta1({ user: "*", nonResourcePath: "*", readonly: true }),
  v1beta1({ user: "admin", namespace: "*", resource: "*", apiGroup: "*" }),
  v1beta1({ user: "scheduler", namespace: "*", resource: "pods", readonly: true }),
  v1beta1({ user: "scheduler", namespace: "*", resource: "bindings" }),
  "",
  v1beta1({ user: "alice", namespace: "projectCaribou", resource: "*", apiGroup: "*" }),
  v1beta1({ user: "bob", namespace: "projectCaribou", resource: "*", apiGroup: "*", readonly: true }),
  v1beta1({ group: "devs", namespace: "*", resource: "deployments", apiGroup: "apps" }),
  v1beta1({ user: "carol", nonResourcePath: "/logs/*" }),
];

const authenticated = (name: string, ...groups: string[]) => ({ name, groups: [...groups, "system:authenticated"] });
const allow = { decision: "allow", reason: "" };
const none = { decision: "noOpinion", reason: "No policy matched." };

describe("ABAC authorizer", () => {
  const abac = AbacAuthorizer.fromFile(policyFile(example));

  it("matches user, namespace, resource and apiGroup", () => {
    expect(abac.authorize(resourceRequest(authenticated("admin"), { verb: "delete", namespace: "x" }))).toEqual(allow);
    expect(
      abac.authorize(resourceRequest(authenticated("alice"), { verb: "create", namespace: "projectCaribou" })),
    ).toEqual(allow);
    expect(abac.authorize(resourceRequest(authenticated("alice"), { namespace: "other" }))).toEqual(none);
    // `*` namespace matches cluster-scoped requests too.
    expect(abac.authorize(resourceRequest(authenticated("admin"), { resource: "nodes", namespace: "" }))).toEqual(
      allow,
    );
  });

  it("readonly policies allow only get, list and watch", () => {
    const bob = authenticated("bob");
    for (const verb of ["get", "list", "watch"]) {
      expect(abac.authorize(resourceRequest(bob, { verb, namespace: "projectCaribou" }))).toEqual(allow);
    }
    expect(abac.authorize(resourceRequest(bob, { verb: "update", namespace: "projectCaribou" }))).toEqual(none);
    expect(abac.authorize(resourceRequest(authenticated("scheduler"), { verb: "create", resource: "pods" }))).toEqual(
      none,
    );
    expect(
      abac.authorize(resourceRequest(authenticated("scheduler"), { verb: "create", resource: "bindings" })),
    ).toEqual(allow);
  });

  it("an empty apiGroup matches only the core group; groups match by membership", () => {
    expect(abac.authorize(resourceRequest(authenticated("scheduler"), { apiGroup: "apps", resource: "pods" }))).toEqual(
      none,
    );
    const dev = authenticated("dave", "devs");
    expect(abac.authorize(resourceRequest(dev, { verb: "patch", apiGroup: "apps", resource: "deployments" }))).toEqual(
      allow,
    );
    expect(
      abac.authorize(resourceRequest(authenticated("erin"), { apiGroup: "apps", resource: "deployments" })),
    ).toEqual(none);
  });

  it("`*` user means every authenticated user; non-resource paths match `*`, exactly or by prefix", () => {
    expect(abac.authorize(pathRequest(authenticated("anyone"), "/healthz"))).toEqual(allow);
    expect(abac.authorize(pathRequest(authenticated("anyone"), "/healthz", "post"))).toEqual(none);
    expect(
      abac.authorize(pathRequest({ name: "system:anonymous", groups: ["system:unauthenticated"] }, "/healthz")),
    ).toEqual(none);
    expect(abac.authorize(pathRequest(authenticated("carol"), "/logs/kube.log", "post"))).toEqual(allow);
    expect(abac.authorize(pathRequest(authenticated("carol"), "/logsx", "post"))).toEqual(none);
    // A resource policy never matches a non-resource request and the reverse.
    expect(abac.authorize(pathRequest(authenticated("admin"), "/metrics", "post"))).toEqual(none);
  });

  it("reads unversioned (v0) lines with their widening defaults", () => {
    expect(parsePolicyLine(`{"user":"admin"}`)).toEqual({
      user: "admin",
      group: "",
      readonly: false,
      apiGroup: "*",
      resource: "*",
      namespace: "*",
      nonResourcePath: "*",
    });
    expect(parsePolicyLine(`{"readonly": true}`)).toMatchObject({ user: "", group: "system:authenticated" });
    expect(parsePolicyLine(`{"user":"*","namespace":"ns1"}`)).toMatchObject({
      user: "",
      group: "system:authenticated",
      namespace: "ns1",
      resource: "*",
      nonResourcePath: "",
    });
    // A type kube does not know is read as v0 too.
    expect(
      parsePolicyLine(`{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Other","user":"x"}`),
    ).toMatchObject({ user: "x", namespace: "*" });
    const v0 = new AbacAuthorizer([parsePolicyLine(`{"user":"ops","namespace":"prod","readonly":true}`)]);
    expect(v0.authorize(resourceRequest(authenticated("ops"), { namespace: "prod", apiGroup: "apps" }))).toEqual(allow);
  });

  it("v1beta1 `*` group maps to system:authenticated; a policy without subject matches nobody", () => {
    expect(parsePolicyLine(v1beta1({ group: "*", resource: "pods" }))).toMatchObject({
      user: "",
      group: "system:authenticated",
    });
    const nobody = new AbacAuthorizer([parsePolicyLine(v1beta1({ namespace: "*", resource: "*", apiGroup: "*" }))]);
    expect(nobody.authorize(resourceRequest(authenticated("x")))).toEqual(none);
  });

  it("names the file, line and text of a line that does not decode", () => {
    const path = policyFile([v1beta1({ user: "a" }), "{not json"]);
    expect(() => loadPolicyFile(path)).toThrow(new RegExp(`^error reading policy file ${path}, line 2: \\{not json: `));
    const typed = policyFile([v1beta1({ user: "a", readonly: "yes" })]);
    expect(() => loadPolicyFile(typed)).toThrow(/cannot unmarshal string into Go struct field .*readonly of type bool/);
    expect(() => loadPolicyFile(join(dir, "missing.jsonl"))).toThrow(/ENOENT/);
  });

  it("lists the rules of matching policies in a namespace", () => {
    expect(abac.rulesFor(authenticated("bob"), "projectCaribou")).toEqual({
      resourceRules: [{ verbs: ["get", "list", "watch"], apiGroups: ["*"], resources: ["*"], resourceNames: [] }],
      nonResourceRules: [],
      incomplete: false,
    });
    // As in kube, a policy's namespace must match too: the non-resource policy has none.
    expect(abac.rulesFor(authenticated("bob"), "").nonResourceRules).toEqual([
      { verbs: ["get", "list", "watch"], nonResourceURLs: ["*"] },
    ]);
    expect(abac.rulesFor(authenticated("alice"), "elsewhere").resourceRules).toEqual([]);
  });
});
