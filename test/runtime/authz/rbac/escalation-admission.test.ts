import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UserInfo } from "../../../../runtime/access/user-info.js";
import type { PolicyRule } from "../../../../runtime/authz/rbac/rule-matches.js";
import type { KubeObject } from "../../../../runtime/object/kube-object.js";
import { failure } from "../../controllers/controller-harness.js";
import {
  clusterRole,
  clusterRoleBinding,
  type RbacHarness,
  requestBy,
  role,
  roleBinding,
  startRbac,
  targetOf,
  user,
  userSubject,
} from "./rbac-harness.js";

const limited = user("limited");
const escalator = user("escalator");
const binder = user("binder");
const reader = user("reader");
const root = user("root");
const namedEscalator = user("named-escalator");
const dangling = user("dangling");
const master = { name: "m", groups: ["system:masters"] };

const podsRead: PolicyRule = { verbs: ["get", "list", "watch"], apiGroups: [""], resources: ["pods"] };
const all: PolicyRule = { verbs: ["*"], apiGroups: ["*"], resources: ["*"] };
const rbacRule = (verbs: string[], resources: string[], resourceNames?: string[]): PolicyRule => ({
  verbs,
  apiGroups: ["rbac.authorization.k8s.io"],
  resources,
  ...(resourceNames ? { resourceNames } : {}),
});

let h: RbacHarness;

beforeAll(async () => {
  h = await startRbac();
  const objects = [
    clusterRole("pod-reader", [podsRead]),
    clusterRole("admin-ish", [all]),
    clusterRole("everything", [all, { verbs: ["*"], nonResourceURLs: ["*"] }]),
    clusterRole("role-escalator", [rbacRule(["escalate"], ["roles"])]),
    clusterRole("admin-binder", [rbacRule(["bind"], ["clusterroles"], ["admin-ish"])]),
    clusterRole("named-role-escalator", [rbacRule(["escalate"], ["roles"], ["named"])]),
    roleBinding("ns1", "limited-pods", { kind: "ClusterRole", name: "pod-reader" }, [
      userSubject("limited"),
      userSubject("escalator"),
      userSubject("binder"),
      userSubject("named-escalator"),
      userSubject("dangling"),
    ]),
    roleBinding("ns1", "escalator", { kind: "ClusterRole", name: "role-escalator" }, [userSubject("escalator")]),
    roleBinding("ns1", "binder", { kind: "ClusterRole", name: "admin-binder" }, [userSubject("binder")]),
    roleBinding("ns1", "named-escalator", { kind: "ClusterRole", name: "named-role-escalator" }, [
      userSubject("named-escalator"),
    ]),
    roleBinding("ns1", "dangling", { kind: "Role", name: "nope" }, [userSubject("dangling")]),
    clusterRoleBinding("reader", "pod-reader", [userSubject("reader")]),
    clusterRoleBinding("root", "everything", [userSubject("root")]),
  ];
  for (const obj of objects) await h.write(obj);
});

afterAll(async () => {
  await h.close();
  expect(h.errors).toEqual([]);
});

function create(obj: KubeObject, as: UserInfo, dryRun = false): Promise<KubeObject> {
  return h.api.create(targetOf(obj), structuredClone(obj), { request: requestBy(as), dryRun });
}

async function update(obj: KubeObject, as: UserInfo): Promise<KubeObject> {
  return (await h.api.update(targetOf(obj), structuredClone(obj), { request: requestBy(as) })).object;
}

const grantPrefix = (name: string) =>
  `user "${name}" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n`;

describe("creating and updating roles", () => {
  it("allows rules the user holds in the namespace", async () => {
    await expect(create(role("ns1", "readers", [{ ...podsRead, verbs: ["get"] }]), limited)).resolves.toBeDefined();
  });

  it("refuses rules the user lacks, in kube's words", async () => {
    const tooMuch = role("ns1", "too-much", [
      { verbs: ["get", "delete"], apiGroups: [""], resources: ["pods"] },
      { verbs: ["list"], apiGroups: [""], resources: ["secrets"] },
    ]);
    const error = await failure(create(tooMuch, limited));
    expect(error.status).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message:
        `roles.rbac.authorization.k8s.io "too-much" is forbidden: ${grantPrefix("limited")}` +
        '{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}\n' +
        '{APIGroups:[""], Resources:["secrets"], Verbs:["list"]}',
      reason: "Forbidden",
      details: { name: "too-much", group: "rbac.authorization.k8s.io", kind: "roles" },
      code: 403,
    });
    expect((await failure(create(tooMuch, limited, true))).code).toBe(403);
  });

  it("counts only the namespace's rules, and cluster-wide ones for ClusterRoles", async () => {
    const elsewhere = await failure(create(role("ns2", "readers", [podsRead]), limited));
    expect(elsewhere.message).toBe(
      `roles.rbac.authorization.k8s.io "readers" is forbidden: ${grantPrefix("limited")}` +
        '{APIGroups:[""], Resources:["pods"], Verbs:["get" "list" "watch"]}',
    );
    const cluster = await failure(create(clusterRole("readers", [podsRead]), limited));
    expect(cluster.message).toMatch(
      /^clusterroles\.rbac\.authorization\.k8s\.io "readers" is forbidden: user "limited"/,
    );
    await expect(create(clusterRole("readers", [podsRead]), reader)).resolves.toBeDefined();
    await expect(create(role("ns2", "readers", [podsRead]), reader)).resolves.toBeDefined();
  });

  it("allows anything to a user who may escalate roles in the namespace", async () => {
    await expect(create(role("ns1", "escalated", [all]), escalator)).resolves.toBeDefined();
    expect((await failure(create(role("ns2", "escalated", [all]), escalator))).code).toBe(403);
  });

  it("asks escalate with the role's name on update, without one on create", async () => {
    const named = role("ns1", "named", [all]);
    expect((await failure(create(named, namedEscalator))).code).toBe(403);
    await h.write(role("ns1", "named", [podsRead]));
    await expect(update(named, namedEscalator)).resolves.toBeDefined();
  });

  it("lets system:masters and the server's controllers write any role", async () => {
    await expect(create(clusterRole("masters-made", [all]), master)).resolves.toBeDefined();
    await expect(
      h.api.create(targetOf(clusterRole("server-made", [all])), clusterRole("server-made", [all])),
    ).resolves.toBeDefined();
  });

  it("reports the user's roles that failed to resolve", async () => {
    const error = await failure(
      create(role("ns1", "secrets", [{ verbs: ["get"], apiGroups: [""], resources: ["secrets"] }]), dangling),
    );
    expect(error.message).toBe(
      `roles.rbac.authorization.k8s.io "secrets" is forbidden: ${grantPrefix("dangling")}` +
        '{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}' +
        '; resolution errors: [roles.rbac.authorization.k8s.io "nope" not found]',
    );
  });

  it("does not check a change of finalizers or owner references only", async () => {
    const big = await h.write(role("ns1", "big", [all]));
    const withFinalizer = structuredClone(big);
    (withFinalizer.metadata as Record<string, unknown>).finalizers = ["example.com/hold"];
    await expect(update(withFinalizer, limited)).resolves.toBeDefined();
    const labelled = structuredClone(withFinalizer);
    (labelled.metadata as Record<string, unknown>).labels = { a: "b" };
    delete (labelled.metadata as Record<string, unknown>).resourceVersion;
    expect((await failure(update(labelled, limited))).code).toBe(403);
  });
});

describe("aggregated ClusterRoles", () => {
  const aggregation = { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { "example.com/agg": "true" } }] } };

  it("need every rule on every resource and URL", async () => {
    const aggregated = clusterRole("aggregated", [], aggregation);
    const error = await failure(create(aggregated, reader));
    expect(error.message).toBe(
      'clusterroles.rbac.authorization.k8s.io "aggregated" is forbidden: must have cluster-admin privileges to use the aggregationRule',
    );
    await expect(create(aggregated, root)).resolves.toBeDefined();
  });

  it("need them to drop the aggregation rule too", async () => {
    await h.write(clusterRole("was-aggregated", [], aggregation));
    const plain = clusterRole("was-aggregated", []);
    expect((await failure(update(plain, reader))).message).toMatch(/must have cluster-admin privileges/);
    await expect(update(plain, root)).resolves.toBeDefined();
  });
});

describe("creating and updating bindings", () => {
  it("allows binding a role whose rules the user holds", async () => {
    const binding = roleBinding("ns1", "more-readers", { kind: "ClusterRole", name: "pod-reader" }, [userSubject("x")]);
    await expect(create(binding, limited)).resolves.toBeDefined();
  });

  it("refuses binding a role with rules the user lacks", async () => {
    const binding = roleBinding("ns1", "admins", { kind: "ClusterRole", name: "admin-ish" }, [userSubject("x")]);
    const error = await failure(create(binding, limited));
    expect(error.status.details).toEqual({ name: "admins", group: "rbac.authorization.k8s.io", kind: "rolebindings" });
    expect(error.message).toBe(
      `rolebindings.rbac.authorization.k8s.io "admins" is forbidden: ${grantPrefix("limited")}` +
        '{APIGroups:["*"], Resources:["*"], Verbs:["*"]}',
    );
  });

  it("allows binding a role the user may bind, by name and namespace", async () => {
    const admins = (name: string, namespace = "ns1") =>
      roleBinding(namespace, "admins", { kind: "ClusterRole", name }, [userSubject("x")]);
    await expect(create(admins("admin-ish"), binder)).resolves.toBeDefined();
    expect((await failure(create(admins("everything"), binder))).code).toBe(403);
    expect((await failure(create(admins("admin-ish", "ns2"), binder))).code).toBe(403);
  });

  it("counts cluster-wide rules only for ClusterRoleBindings", async () => {
    const binding = clusterRoleBinding("readers", "pod-reader", [userSubject("x")]);
    const error = await failure(create(binding, limited));
    expect(error.message).toMatch(
      /^clusterrolebindings\.rbac\.authorization\.k8s\.io "readers" is forbidden: user "limited"/,
    );
    await expect(create(binding, reader)).resolves.toBeDefined();
  });

  it("answers 404 for a role that does not exist", async () => {
    const toGhost = roleBinding("ns1", "ghost", { kind: "ClusterRole", name: "ghost" }, [userSubject("x")]);
    const error = await failure(create(toGhost, limited));
    expect([error.code, error.message]).toEqual([404, 'clusterroles.rbac.authorization.k8s.io "ghost" not found']);
    const toRole = roleBinding("ns1", "ghost", { kind: "Role", name: "ghost" }, [userSubject("x")]);
    expect((await failure(create(toRole, limited))).message).toBe('roles.rbac.authorization.k8s.io "ghost" not found');
  });

  it("checks updates, except of finalizers", async () => {
    const created = await h.write(
      roleBinding("ns1", "admins-later", { kind: "ClusterRole", name: "admin-ish" }, [userSubject("x")]),
    );
    const moreSubjects = roleBinding("ns1", "admins-later", { kind: "ClusterRole", name: "admin-ish" }, [
      userSubject("x"),
      userSubject("limited"),
    ]);
    expect((await failure(update(moreSubjects, limited))).code).toBe(403);
    const withFinalizer = structuredClone(created);
    (withFinalizer.metadata as Record<string, unknown>).finalizers = ["example.com/hold"];
    await expect(update(withFinalizer, limited)).resolves.toBeDefined();
  });

  it("refuses a change of roleRef, whoever asks", async () => {
    const binding = await h.write(roleBinding("ns1", "fixed", { kind: "ClusterRole", name: "pod-reader" }, []));
    const changed = structuredClone(binding);
    (changed.roleRef as Record<string, unknown>).name = "admin-ish";
    const error = await failure(update(changed, master));
    expect([error.code, error.reason]).toEqual([422, "Invalid"]);
    expect(error.message).toBe(
      'RoleBinding.rbac.authorization.k8s.io "fixed" is invalid: roleRef: Invalid value: {"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":"admin-ish"}: cannot change roleRef',
    );
    const cluster = await h.write(clusterRoleBinding("fixed", "pod-reader", []));
    const changedCluster = structuredClone(cluster);
    (changedCluster.roleRef as Record<string, unknown>).name = "admin-ish";
    expect((await failure(h.api.update(targetOf(changedCluster), changedCluster))).code).toBe(422);
  });
});
