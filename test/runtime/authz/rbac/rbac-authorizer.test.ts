import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Attributes } from "../../../../runtime/access/authorizer.js";
import { RbacAuthorizer } from "../../../../runtime/authz/rbac/rbac-authorizer.js";
import { RbacIndex } from "../../../../runtime/authz/rbac/rbac-index.js";
import {
  clusterRole,
  clusterRoleBinding,
  groupSubject,
  nonResource,
  type RbacHarness,
  resource,
  role,
  roleBinding,
  serviceAccount,
  startRbac,
  user,
  userSubject,
} from "./rbac-harness.js";

const alice = user("alice");
const bob = user("bob");
const carol = user("carol");
const dan = user("dan", "devs");
const eve = user("eve", "ops");
const dave = user("dave");
const root = user("root");
const builder = serviceAccount("ns2", "builder");
const otherBuilder = serviceAccount("ns1", "builder");
/** A user named like a service account but given no service account identity: names match, not groups. */
const lookalike = user("system:serviceaccount:ns2:builder");

let h: RbacHarness;

beforeAll(async () => {
  h = await startRbac();
  const objects = [
    clusterRole("pod-reader", [{ verbs: ["get", "list", "watch"], apiGroups: [""], resources: ["pods"] }]),
    clusterRole("deploy-admin", [
      { verbs: ["*"], apiGroups: ["apps"], resources: ["deployments", "deployments/scale"] },
    ]),
    clusterRole("scale-any", [{ verbs: ["get", "update"], apiGroups: ["*"], resources: ["*/scale"] }]),
    clusterRole("named-config", [
      { verbs: ["get", "update"], apiGroups: [""], resources: ["configmaps"], resourceNames: ["app-config"] },
    ]),
    clusterRole("metrics", [{ verbs: ["get"], nonResourceURLs: ["/metrics", "/logs/*"] }]),
    clusterRole("everything", [
      { verbs: ["*"], apiGroups: ["*"], resources: ["*"] },
      { verbs: ["*"], nonResourceURLs: ["*"] },
    ]),
    clusterRole("node-viewer", [{ verbs: ["get", "list"], apiGroups: [""], resources: ["nodes"] }]),
    role("ns1", "secret-reader", [{ verbs: ["get"], apiGroups: [""], resources: ["secrets"] }]),
    clusterRoleBinding("alice-pods", "pod-reader", [userSubject("alice")]),
    roleBinding("ns1", "bob-deploy", { kind: "ClusterRole", name: "deploy-admin" }, [userSubject("bob")]),
    roleBinding("ns1", "devs-secrets", { kind: "Role", name: "secret-reader" }, [groupSubject("devs")]),
    clusterRoleBinding("ops-scale", "scale-any", [groupSubject("ops")]),
    roleBinding("ns2", "builder-config", { kind: "ClusterRole", name: "named-config" }, [
      { kind: "ServiceAccount", name: "builder" },
    ]),
    clusterRoleBinding("builder-metrics", "metrics", [{ kind: "ServiceAccount", name: "builder", namespace: "ns2" }]),
    clusterRoleBinding("root", "everything", [userSubject("root")]),
    clusterRoleBinding("carol-nodes", "node-viewer", [userSubject("nobody"), userSubject("carol")]),
    roleBinding("ns1", "dangling", { kind: "Role", name: "nope" }, [userSubject("dave")]),
  ];
  for (const obj of objects) await h.write(obj);
});

afterAll(async () => {
  await h.close();
  expect(h.errors).toEqual([]);
});

describe("the RBAC authorizer", () => {
  it.each<[string, Attributes, "allow" | "noOpinion"]>([
    ["a cluster binding, in a namespace", resource(alice, "get", "", "pods", { namespace: "ns1" }), "allow"],
    ["a cluster binding, across namespaces", resource(alice, "list", "", "pods"), "allow"],
    ["a cluster binding, named object", resource(alice, "get", "", "pods", { namespace: "x", name: "p" }), "allow"],
    ["a verb the role lacks", resource(alice, "delete", "", "pods", { namespace: "ns1" }), "noOpinion"],
    ["a subresource of a granted resource", resource(alice, "get", "", "pods", { subresource: "log" }), "noOpinion"],
    ["the resource in another group", resource(alice, "get", "apps", "pods", { namespace: "ns1" }), "noOpinion"],
    ["another resource", resource(alice, "get", "", "secrets", { namespace: "ns1" }), "noOpinion"],
    [
      "a ClusterRole bound in its namespace",
      resource(bob, "create", "apps", "deployments", { namespace: "ns1" }),
      "allow",
    ],
    [
      "a ClusterRole bound elsewhere",
      resource(bob, "create", "apps", "deployments", { namespace: "ns2" }),
      "noOpinion",
    ],
    ["a ClusterRole bound in a namespace, cluster-wide", resource(bob, "list", "apps", "deployments"), "noOpinion"],
    [
      "a named subresource",
      resource(bob, "update", "apps", "deployments", { namespace: "ns1", subresource: "scale" }),
      "allow",
    ],
    [
      "a subresource not named",
      resource(bob, "get", "apps", "deployments", { namespace: "ns1", subresource: "status" }),
      "noOpinion",
    ],
    ["a group subject", resource(dan, "get", "", "secrets", { namespace: "ns1", name: "s" }), "allow"],
    ["a group subject, other namespace", resource(dan, "get", "", "secrets", { namespace: "ns2" }), "noOpinion"],
    ["a group subject, other verb", resource(dan, "list", "", "secrets", { namespace: "ns1" }), "noOpinion"],
    ["not in the group", resource(alice, "get", "", "secrets", { namespace: "ns1" }), "noOpinion"],
    [
      "*/scale in any group",
      resource(eve, "update", "apps", "deployments", { namespace: "ns3", subresource: "scale" }),
      "allow",
    ],
    [
      "*/scale of another resource",
      resource(eve, "get", "", "replicationcontrollers", { namespace: "ns3", subresource: "scale" }),
      "allow",
    ],
    ["*/scale and the resource itself", resource(eve, "get", "apps", "deployments", { namespace: "ns3" }), "noOpinion"],
    [
      "*/scale and another subresource",
      resource(eve, "get", "apps", "deployments", { namespace: "ns3", subresource: "status" }),
      "noOpinion",
    ],
    [
      "a service account in the binding's namespace, named object",
      resource(builder, "get", "", "configmaps", { namespace: "ns2", name: "app-config" }),
      "allow",
    ],
    [
      "resourceNames, another name",
      resource(builder, "get", "", "configmaps", { namespace: "ns2", name: "other" }),
      "noOpinion",
    ],
    ["resourceNames and a list", resource(builder, "list", "", "configmaps", { namespace: "ns2" }), "noOpinion"],
    [
      "resourceNames, other namespace",
      resource(builder, "get", "", "configmaps", { namespace: "ns1", name: "app-config" }),
      "noOpinion",
    ],
    [
      "a service account of another namespace",
      resource(otherBuilder, "get", "", "configmaps", { namespace: "ns2", name: "app-config" }),
      "noOpinion",
    ],
    [
      "a user named as the service account",
      resource(lookalike, "get", "", "configmaps", { namespace: "ns2", name: "app-config" }),
      "allow",
    ],
    ["an exact URL", nonResource(builder, "get", "/metrics"), "allow"],
    ["a URL prefix", nonResource(builder, "get", "/logs/kube-apiserver.log"), "allow"],
    ["the prefix without its slash", nonResource(builder, "get", "/logs"), "noOpinion"],
    ["a URL, other verb", nonResource(builder, "post", "/metrics"), "noOpinion"],
    ["a URL nobody granted", nonResource(alice, "get", "/metrics"), "noOpinion"],
    ["a URL for resource rules", nonResource(alice, "get", "/api/v1/pods"), "noOpinion"],
    ["wildcards, resources", resource(root, "deletecollection", "batch", "jobs", { namespace: "a" }), "allow"],
    ["wildcards, subresources", resource(root, "get", "", "pods", { namespace: "a", subresource: "exec" }), "allow"],
    ["wildcards, URLs", nonResource(root, "put", "/anything/at/all"), "allow"],
    ["a cluster-scoped resource", resource(carol, "list", "", "nodes"), "allow"],
    ["a later subject of a binding", resource(carol, "get", "", "nodes", { name: "n1" }), "allow"],
    ["nobody", resource(user("mallory"), "get", "", "pods", { namespace: "ns1" }), "noOpinion"],
  ])("%s", (_name, attributes, decision) => {
    expect(h.rbac.authorize(attributes).decision).toBe(decision);
  });

  it("names the binding that allowed, as kube", () => {
    expect(h.rbac.authorize(resource(alice, "get", "", "pods", { namespace: "ns1" }))).toEqual({
      decision: "allow",
      reason: 'RBAC: allowed by ClusterRoleBinding "alice-pods" of ClusterRole "pod-reader" to User "alice"',
    });
    expect(h.rbac.authorize(resource(bob, "get", "apps", "deployments", { namespace: "ns1" })).reason).toBe(
      'RBAC: allowed by RoleBinding "bob-deploy/ns1" of ClusterRole "deploy-admin" to User "bob"',
    );
    expect(h.rbac.authorize(resource(dan, "get", "", "secrets", { namespace: "ns1" })).reason).toBe(
      'RBAC: allowed by RoleBinding "devs-secrets/ns1" of Role "secret-reader" to Group "devs"',
    );
    expect(
      h.rbac.authorize(resource(builder, "get", "", "configmaps", { namespace: "ns2", name: "app-config" })).reason,
    ).toBe(
      'RBAC: allowed by RoleBinding "builder-config/ns2" of ClusterRole "named-config" to ServiceAccount "builder/ns2"',
    );
    expect(h.rbac.authorize(nonResource(builder, "get", "/metrics")).reason).toBe(
      'RBAC: allowed by ClusterRoleBinding "builder-metrics" of ClusterRole "metrics" to ServiceAccount "builder/ns2"',
    );
  });

  it("has no opinion and no reason when nothing applies", () => {
    expect(h.rbac.authorize(resource(alice, "delete", "", "pods", { namespace: "ns1" }))).toEqual({
      decision: "noOpinion",
      reason: "",
    });
  });

  it("reports a binding whose role is missing, and still allows by other bindings", async () => {
    expect(h.rbac.authorize(resource(dave, "get", "", "pods", { namespace: "ns1" }))).toEqual({
      decision: "noOpinion",
      reason: 'RBAC: role.rbac.authorization.k8s.io "nope" not found',
    });
    expect(h.rbac.authorize(resource(dave, "get", "", "pods")).reason).toBe("");
    const daveTwice = roleBinding("ns1", "dangling-cluster", { kind: "ClusterRole", name: "gone" }, [
      userSubject("dave"),
    ]);
    const daveReads = clusterRoleBinding("dave-pods", "pod-reader", [userSubject("dave")]);
    await h.write(daveTwice);
    expect(h.rbac.authorize(resource(dave, "get", "", "pods", { namespace: "ns1" })).reason).toMatch(
      /^RBAC: \[(role|clusterrole)\.rbac\.authorization\.k8s\.io "(nope|gone)" not found, (role|clusterrole)\.rbac/,
    );
    await h.write(daveReads);
    expect(h.rbac.authorize(resource(dave, "get", "", "pods", { namespace: "ns1" })).decision).toBe("allow");
    await h.remove(daveReads);
    await h.remove(daveTwice);
  });
});

describe("RBAC rules for SelfSubjectRulesReview", () => {
  it("lists cluster rules and the namespace's rules", () => {
    expect(h.rbac.rulesFor(bob, "ns1")).toEqual({
      resourceRules: [
        { verbs: ["*"], apiGroups: ["apps"], resources: ["deployments", "deployments/scale"], resourceNames: [] },
      ],
      nonResourceRules: [],
      incomplete: false,
    });
    expect(h.rbac.rulesFor(bob, "").resourceRules).toEqual([]);
    expect(h.rbac.rulesFor(builder, "ns2")).toEqual({
      resourceRules: [
        { verbs: ["get", "update"], apiGroups: [""], resources: ["configmaps"], resourceNames: ["app-config"] },
      ],
      nonResourceRules: [{ verbs: ["get"], nonResourceURLs: ["/metrics", "/logs/*"] }],
      incomplete: false,
    });
  });

  it("splits a rule with resources and URLs", () => {
    expect(h.rbac.rulesFor(root, "")).toEqual({
      resourceRules: [{ verbs: ["*"], apiGroups: ["*"], resources: ["*"], resourceNames: [] }],
      nonResourceRules: [{ verbs: ["*"], nonResourceURLs: ["*"] }],
      incomplete: false,
    });
  });

  it("gives the missing roles as the evaluation error, complete", () => {
    expect(h.rbac.rulesFor(dave, "ns1")).toEqual({
      resourceRules: [],
      nonResourceRules: [],
      incomplete: false,
      evaluationError: 'role.rbac.authorization.k8s.io "nope" not found',
    });
  });
});

describe("the RBAC index follows changes", () => {
  const deletePods = resource(alice, "delete", "", "pods", { namespace: "ns1" });

  it("sees a role's rules change", async () => {
    await h.write(
      clusterRole("pod-reader", [{ verbs: ["get", "list", "watch", "delete"], apiGroups: [""], resources: ["pods"] }]),
    );
    expect(h.rbac.authorize(deletePods).decision).toBe("allow");
    await h.write(
      clusterRole("pod-reader", [{ verbs: ["get", "list", "watch"], apiGroups: [""], resources: ["pods"] }]),
    );
    expect(h.rbac.authorize(deletePods).decision).toBe("noOpinion");
  });

  it("sees a binding's subjects change, and its deletion", async () => {
    const binding = roleBinding("ns1", "bob-deploy", { kind: "ClusterRole", name: "deploy-admin" }, [
      userSubject("carol"),
    ]);
    const bobCreates = resource(bob, "create", "apps", "deployments", { namespace: "ns1" });
    const carolCreates = resource(carol, "create", "apps", "deployments", { namespace: "ns1" });
    await h.write(binding);
    expect(h.rbac.authorize(bobCreates).decision).toBe("noOpinion");
    expect(h.rbac.authorize(carolCreates).decision).toBe("allow");
    await h.remove(binding);
    expect(h.rbac.authorize(carolCreates).decision).toBe("noOpinion");
  });

  it("sees a role deleted and created again", async () => {
    const secretReader = role("ns1", "secret-reader", [{ verbs: ["get"], apiGroups: [""], resources: ["secrets"] }]);
    const danReads = resource(dan, "get", "", "secrets", { namespace: "ns1" });
    await h.remove(secretReader);
    expect(h.rbac.authorize(danReads)).toEqual({
      decision: "noOpinion",
      reason: 'RBAC: role.rbac.authorization.k8s.io "secret-reader" not found',
    });
    await h.write(secretReader);
    expect(h.rbac.authorize(danReads).decision).toBe("allow");
  });

  it("reads an aggregated ClusterRole with the rules stored in it", async () => {
    const aggregate = { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { agg: "true" } }] } };
    await h.write(clusterRole("aggregated", [], aggregate));
    await h.write(clusterRoleBinding("eve-aggregated", "aggregated", [userSubject("eve")]));
    const eveLists = resource(eve, "list", "batch", "jobs", { namespace: "ns1" });
    expect(h.rbac.authorize(eveLists).decision).toBe("noOpinion");
    await h.write(
      clusterRole("aggregated", [{ verbs: ["list"], apiGroups: ["batch"], resources: ["jobs"] }], aggregate),
    );
    expect(h.rbac.authorize(eveLists).decision).toBe("allow");
  });

  it("loads what exists before it starts", async () => {
    const late = new RbacIndex(h.api);
    const abort = new AbortController();
    const running = late.run({ signal: abort.signal, log: (message, error) => h.errors.push({ message, error }) });
    await late.ready;
    const authorizer = new RbacAuthorizer(late);
    expect(authorizer.authorize(resource(alice, "get", "", "pods")).decision).toBe("allow");
    expect(authorizer.authorize(resource(dan, "get", "", "secrets", { namespace: "ns1" })).decision).toBe("allow");
    abort.abort();
    await running;
  });
});
