import { describe, expect, it } from "vitest";
import {
  bootstrapPolicy,
  type PolicyBinding,
  type PolicyRole,
} from "../../../../runtime/authz/rbac/bootstrap-policy.js";

// Facts from kube's bootstrappolicy testdata (cluster-roles.yaml, cluster-role-bindings.yaml,
// namespace-roles.yaml, namespace-role-bindings.yaml, controller-roles.yaml) as of v1.36, written out
// as kube serializes them: every list sorted.
const defaultsLabel = { "kubernetes.io/bootstrapping": "rbac-defaults" };
const autoupdate = { "rbac.authorization.kubernetes.io/autoupdate": "true" };
const read = ["get", "list", "watch"];
const write = ["create", "delete", "deletecollection", "patch", "update"];
const readWrite = ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"];
const events = { apiGroups: ["", "events.k8s.io"], resources: ["events"], verbs: ["create", "patch", "update"] };

function meta(name: string, labels: Record<string, string> = {}, namespace?: string) {
  return {
    name,
    ...(namespace === undefined ? {} : { namespace }),
    labels: { ...defaultsLabel, ...labels },
    annotations: autoupdate,
  };
}

const clusterRole = (name: string) => bootstrapPolicy.clusterRoles.find((r) => r.metadata.name === name);
const clusterRoleBinding = (name: string) => bootstrapPolicy.clusterRoleBindings.find((b) => b.metadata.name === name);
const role = (namespace: string, name: string) =>
  bootstrapPolicy.roles.find((r) => r.metadata.namespace === namespace && r.metadata.name === name);
const roleBinding = (namespace: string, name: string) =>
  bootstrapPolicy.roleBindings.find((b) => b.metadata.namespace === namespace && b.metadata.name === name);

const group = (name: string) => ({ apiGroup: "rbac.authorization.k8s.io", kind: "Group", name });

describe("bootstrap policy: the roles that matter most, exactly as kube-apiserver creates them", () => {
  it("cluster-admin may do anything and system:masters holds it", () => {
    expect(clusterRole("cluster-admin")).toEqual({
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "ClusterRole",
      metadata: meta("cluster-admin"),
      rules: [
        { apiGroups: ["*"], resources: ["*"], verbs: ["*"] },
        { nonResourceURLs: ["*"], verbs: ["*"] },
      ],
    });
    expect(clusterRoleBinding("cluster-admin")).toEqual({
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "ClusterRoleBinding",
      metadata: meta("cluster-admin"),
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "cluster-admin" },
      subjects: [group("system:masters")],
    });
  });

  it("admin, edit and view are aggregated, edit into admin and view into edit", () => {
    const aggregated = (name: string, selects: string, labels: Record<string, string> = {}) => ({
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "ClusterRole",
      metadata: meta(name, labels),
      aggregationRule: {
        clusterRoleSelectors: [{ matchLabels: { [`rbac.authorization.k8s.io/${selects}`]: "true" } }],
      },
    });
    expect(clusterRole("admin")).toEqual(aggregated("admin", "aggregate-to-admin"));
    expect(clusterRole("edit")).toEqual(
      aggregated("edit", "aggregate-to-edit", { "rbac.authorization.k8s.io/aggregate-to-admin": "true" }),
    );
    expect(clusterRole("view")).toEqual(
      aggregated("view", "aggregate-to-view", { "rbac.authorization.k8s.io/aggregate-to-edit": "true" }),
    );
  });

  it("the aggregate-to-* roles carry the aggregation labels and kube's rules", () => {
    expect(clusterRole("system:aggregate-to-admin")).toMatchObject({
      metadata: meta("system:aggregate-to-admin", { "rbac.authorization.k8s.io/aggregate-to-admin": "true" }),
      rules: [
        { apiGroups: ["authorization.k8s.io"], resources: ["localsubjectaccessreviews"], verbs: ["create"] },
        { apiGroups: ["rbac.authorization.k8s.io"], resources: ["rolebindings", "roles"], verbs: readWrite },
      ],
    });
    expect(clusterRole("system:aggregate-to-view")).toEqual({
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "ClusterRole",
      metadata: meta("system:aggregate-to-view", { "rbac.authorization.k8s.io/aggregate-to-view": "true" }),
      rules: [
        {
          apiGroups: [""],
          resources: [
            "configmaps",
            "endpoints",
            "persistentvolumeclaims",
            "persistentvolumeclaims/status",
            "pods",
            "replicationcontrollers",
            "replicationcontrollers/scale",
            "serviceaccounts",
            "services",
            "services/status",
          ],
          verbs: read,
        },
        {
          apiGroups: [""],
          resources: [
            "bindings",
            "events",
            "limitranges",
            "namespaces/status",
            "pods/log",
            "pods/status",
            "replicationcontrollers/status",
            "resourcequotas",
            "resourcequotas/status",
          ],
          verbs: read,
        },
        { apiGroups: ["events.k8s.io"], resources: ["events"], verbs: read },
        { apiGroups: [""], resources: ["namespaces"], verbs: read },
        { apiGroups: ["discovery.k8s.io"], resources: ["endpointslices"], verbs: read },
        {
          apiGroups: ["apps"],
          resources: [
            "controllerrevisions",
            "daemonsets",
            "daemonsets/status",
            "deployments",
            "deployments/scale",
            "deployments/status",
            "replicasets",
            "replicasets/scale",
            "replicasets/status",
            "statefulsets",
            "statefulsets/scale",
            "statefulsets/status",
          ],
          verbs: read,
        },
        {
          apiGroups: ["autoscaling"],
          resources: ["horizontalpodautoscalers", "horizontalpodautoscalers/status"],
          verbs: read,
        },
        { apiGroups: ["batch"], resources: ["cronjobs", "cronjobs/status", "jobs", "jobs/status"], verbs: read },
        {
          apiGroups: ["extensions"],
          resources: [
            "daemonsets",
            "daemonsets/status",
            "deployments",
            "deployments/scale",
            "deployments/status",
            "ingresses",
            "ingresses/status",
            "networkpolicies",
            "replicasets",
            "replicasets/scale",
            "replicasets/status",
            "replicationcontrollers/scale",
          ],
          verbs: read,
        },
        { apiGroups: ["policy"], resources: ["poddisruptionbudgets", "poddisruptionbudgets/status"], verbs: read },
        {
          apiGroups: ["networking.k8s.io"],
          resources: ["ingresses", "ingresses/status", "networkpolicies"],
          verbs: read,
        },
        {
          apiGroups: ["resource.k8s.io"],
          resources: ["resourceclaims", "resourceclaims/status", "resourceclaimtemplates"],
          verbs: read,
        },
      ],
    });
    const edit = clusterRole("system:aggregate-to-edit");
    expect(edit?.metadata.labels).toEqual({ ...defaultsLabel, "rbac.authorization.k8s.io/aggregate-to-edit": "true" });
    expect(edit?.rules?.slice(0, 4)).toEqual([
      {
        apiGroups: [""],
        resources: ["pods/attach", "pods/exec", "pods/portforward", "pods/proxy", "secrets", "services/proxy"],
        verbs: read,
      },
      { apiGroups: [""], resources: ["serviceaccounts"], verbs: ["impersonate"] },
      {
        apiGroups: [""],
        resources: ["pods", "pods/attach", "pods/exec", "pods/portforward", "pods/proxy"],
        verbs: write,
      },
      { apiGroups: [""], resources: ["pods/eviction"], verbs: ["create"] },
    ]);
    // Since v1.22 edit may not write endpoints (CVE-2021-25740).
    expect(edit?.rules?.some((r) => r.apiGroups?.includes("") && r.resources?.includes("endpoints"))).toBe(false);
  });

  it("system:basic-user, system:discovery and system:public-info-viewer, and who holds them", () => {
    expect(clusterRole("system:basic-user")?.rules).toEqual([
      {
        apiGroups: ["authorization.k8s.io"],
        resources: ["selfsubjectaccessreviews", "selfsubjectrulesreviews"],
        verbs: ["create"],
      },
      { apiGroups: ["authentication.k8s.io"], resources: ["selfsubjectreviews"], verbs: ["create"] },
    ]);
    expect(clusterRole("system:discovery")?.rules).toEqual([
      {
        nonResourceURLs: [
          "/api",
          "/api/*",
          "/apis",
          "/apis/*",
          "/healthz",
          "/livez",
          "/openapi",
          "/openapi/*",
          "/readyz",
          "/version",
          "/version/",
        ],
        verbs: ["get"],
      },
    ]);
    expect(clusterRole("system:public-info-viewer")).toEqual({
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "ClusterRole",
      metadata: meta("system:public-info-viewer"),
      rules: [{ nonResourceURLs: ["/healthz", "/livez", "/readyz", "/version", "/version/"], verbs: ["get"] }],
    });
    expect(clusterRoleBinding("system:basic-user")?.subjects).toEqual([group("system:authenticated")]);
    expect(clusterRoleBinding("system:discovery")?.subjects).toEqual([group("system:authenticated")]);
    expect(clusterRoleBinding("system:public-info-viewer")?.subjects).toEqual([
      group("system:authenticated"),
      group("system:unauthenticated"),
    ]);
  });

  it("system:node holds the kubelet's rules and its binding has no subjects", () => {
    const core = (verbs: string[], resources: string[]) => ({ apiGroups: [""], resources, verbs });
    expect(clusterRole("system:node")?.rules).toEqual([
      { apiGroups: ["authentication.k8s.io"], resources: ["tokenreviews"], verbs: ["create"] },
      {
        apiGroups: ["authorization.k8s.io"],
        resources: ["localsubjectaccessreviews", "subjectaccessreviews"],
        verbs: ["create"],
      },
      core(read, ["services"]),
      core(["create", "get", "list", "watch"], ["nodes"]),
      core(["patch", "update"], ["nodes/status"]),
      core(["patch", "update"], ["nodes"]),
      { apiGroups: ["", "events.k8s.io"], resources: ["events"], verbs: ["create", "patch", "update"] },
      core(read, ["pods"]),
      core(["create", "delete"], ["pods"]),
      core(["patch", "update"], ["pods/status"]),
      core(["create"], ["pods/eviction"]),
      core(read, ["configmaps", "secrets"]),
      core(["get"], ["persistentvolumeclaims", "persistentvolumes"]),
      core(["get"], ["endpoints"]),
      {
        apiGroups: ["certificates.k8s.io"],
        resources: ["certificatesigningrequests"],
        verbs: ["create", "get", "list", "watch"],
      },
      {
        apiGroups: ["coordination.k8s.io"],
        resources: ["leases"],
        verbs: ["create", "delete", "get", "patch", "update"],
      },
      { apiGroups: ["storage.k8s.io"], resources: ["volumeattachments"], verbs: ["get"] },
      core(["create"], ["serviceaccounts/token"]),
      core(["get", "patch", "update"], ["persistentvolumeclaims/status"]),
      { apiGroups: ["storage.k8s.io"], resources: ["csidrivers"], verbs: read },
      { apiGroups: ["storage.k8s.io"], resources: ["csinodes"], verbs: ["create", "delete", "get", "patch", "update"] },
      { apiGroups: ["node.k8s.io"], resources: ["runtimeclasses"], verbs: read },
      { apiGroups: ["resource.k8s.io"], resources: ["resourceclaims"], verbs: ["get"] },
      { apiGroups: ["resource.k8s.io"], resources: ["resourceslices"], verbs: ["deletecollection"] },
      core(["get"], ["serviceaccounts"]),
    ]);
    expect(clusterRoleBinding("system:node")).toEqual({
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "ClusterRoleBinding",
      metadata: meta("system:node"),
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "system:node" },
    });
  });

  it("system:controller:bootstrap-signer in kube-public and kube-system, bound to its ServiceAccount", () => {
    expect(role("kube-public", "system:controller:bootstrap-signer")).toEqual({
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "Role",
      metadata: meta("system:controller:bootstrap-signer", {}, "kube-public"),
      rules: [
        { apiGroups: [""], resources: ["configmaps"], verbs: read },
        { apiGroups: [""], resourceNames: ["cluster-info"], resources: ["configmaps"], verbs: ["update"] },
        events,
      ],
    });
    expect(role("kube-system", "system:controller:bootstrap-signer")).toEqual({
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "Role",
      metadata: meta("system:controller:bootstrap-signer", {}, "kube-system"),
      rules: [{ apiGroups: [""], resources: ["secrets"], verbs: read }],
    });
    for (const namespace of ["kube-public", "kube-system"]) {
      expect(roleBinding(namespace, "system:controller:bootstrap-signer")).toEqual({
        apiVersion: "rbac.authorization.k8s.io/v1",
        kind: "RoleBinding",
        metadata: meta("system:controller:bootstrap-signer", {}, namespace),
        roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "system:controller:bootstrap-signer" },
        subjects: [{ kind: "ServiceAccount", name: "bootstrap-signer", namespace: "kube-system" }],
      });
    }
  });

  it("system:controller:token-cleaner in kube-system", () => {
    expect(role("kube-system", "system:controller:token-cleaner")).toEqual({
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "Role",
      metadata: meta("system:controller:token-cleaner", {}, "kube-system"),
      rules: [{ apiGroups: [""], resources: ["secrets"], verbs: ["delete", "get", "list", "watch"] }, events],
    });
    expect(roleBinding("kube-system", "system:controller:token-cleaner")?.subjects).toEqual([
      { kind: "ServiceAccount", name: "token-cleaner", namespace: "kube-system" },
    ]);
  });

  it("a controller role and its binding to the controller's ServiceAccount", () => {
    expect(clusterRole("system:controller:clusterrole-aggregation-controller")?.rules).toEqual([
      {
        apiGroups: ["rbac.authorization.k8s.io"],
        resources: ["clusterroles"],
        verbs: ["escalate", "get", "list", "patch", "update", "watch"],
      },
    ]);
    expect(clusterRoleBinding("system:controller:clusterrole-aggregation-controller")?.subjects).toEqual([
      { kind: "ServiceAccount", name: "clusterrole-aggregation-controller", namespace: "kube-system" },
    ]);
  });
});

describe("bootstrap policy: totals and invariants", () => {
  const all: (PolicyRole | PolicyBinding)[] = [
    ...bootstrapPolicy.clusterRoles,
    ...bootstrapPolicy.clusterRoleBindings,
    ...bootstrapPolicy.roles,
    ...bootstrapPolicy.roleBindings,
  ];

  it("has kube's counts: 31 user-facing and 38 controller cluster roles, 12 + 38 bindings, 7 roles, 7 bindings", () => {
    const controllers = bootstrapPolicy.clusterRoles.filter((r) => r.metadata.name.startsWith("system:controller:"));
    expect(bootstrapPolicy.clusterRoles.length - controllers.length).toBe(31);
    expect(controllers).toHaveLength(38);
    expect(bootstrapPolicy.clusterRoleBindings).toHaveLength(50);
    expect(bootstrapPolicy.roles).toHaveLength(7);
    expect(bootstrapPolicy.roleBindings).toHaveLength(7);
    expect(bootstrapPolicy.namespaces).toEqual(["kube-system", "kube-public"]);
  });

  it("names are unique and every object carries the bootstrapping label and autoupdate annotation", () => {
    const keys = all.map((o) => `${o.kind}/${o.metadata.namespace ?? ""}/${o.metadata.name}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const object of all) {
      expect(object.metadata.labels["kubernetes.io/bootstrapping"]).toBe("rbac-defaults");
      expect(object.metadata.annotations).toEqual(autoupdate);
    }
  });

  it("every binding refers to a default role, and every controller role is bound to its ServiceAccount", () => {
    for (const binding of bootstrapPolicy.clusterRoleBindings) {
      expect(clusterRole(binding.roleRef.name), binding.metadata.name).toBeDefined();
    }
    for (const binding of bootstrapPolicy.roleBindings) {
      expect(role(binding.metadata.namespace as string, binding.roleRef.name), binding.metadata.name).toBeDefined();
    }
    for (const controller of bootstrapPolicy.clusterRoles.filter((r) =>
      r.metadata.name.startsWith("system:controller:"),
    )) {
      const account = controller.metadata.name.slice("system:controller:".length);
      expect(clusterRoleBinding(controller.metadata.name)?.subjects).toEqual([
        { kind: "ServiceAccount", name: account, namespace: "kube-system" },
      ]);
    }
  });

  it("every list in every rule is sorted, as kube's rule builder leaves it", () => {
    const rules = [...bootstrapPolicy.clusterRoles, ...bootstrapPolicy.roles].flatMap((r) => r.rules ?? []);
    for (const rule of rules) {
      for (const list of [rule.verbs, rule.apiGroups, rule.resources, rule.resourceNames, rule.nonResourceURLs]) {
        if (list !== undefined) expect(list).toEqual([...list].sort());
      }
    }
  });
});
