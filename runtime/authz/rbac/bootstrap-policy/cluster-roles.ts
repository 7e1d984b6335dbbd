// kube-apiserver v1.36's default ClusterRoles and ClusterRoleBindings for users and components (kube's
// bootstrappolicy/policy.go), with the feature gates at their v1.36 defaults: DynamicResourceAllocation,
// KubeletServiceAccountTokenForCredentialProviders, KubeletFineGrainedAuthz, MultiCIDRServiceAllocator,
// ComponentFlagz and ComponentStatusz on; ClusterTrustBundle(Projection) and PodCertificateRequest off.
import { allAuthenticated, allUnauthenticated, mastersGroup } from "../../../access/user-info.js";
import type { PolicyRule } from "../rule-matches.js";
import {
  aggregatedClusterRole,
  aggregateToAdmin,
  aggregateToEdit,
  aggregateToView,
  clusterRole,
  clusterRoleBinding,
  eventsRule,
  groups,
  type PolicyBinding,
  type PolicyRole,
  read,
  readUpdate,
  readWrite,
  rule,
  serviceAccount,
  urlRule,
  users,
  write,
} from "./builders.js";

const core = "";
const kubeControllerManager = "system:kube-controller-manager";
const kubeScheduler = "system:kube-scheduler";

/** NodeRules: what kubelets may do; the Node authorizer and NodeRestriction narrow it per node. */
const nodeRules: PolicyRule[] = [
  rule(["create"], "authentication.k8s.io", ["tokenreviews"]),
  rule(["create"], "authorization.k8s.io", ["subjectaccessreviews", "localsubjectaccessreviews"]),
  rule(read, core, ["services"]),
  rule(["create", "get", "list", "watch"], core, ["nodes"]),
  rule(["update", "patch"], core, ["nodes/status"]),
  rule(["update", "patch"], core, ["nodes"]),
  rule(["create", "update", "patch"], [core, "events.k8s.io"], ["events"]),
  rule(read, core, ["pods"]),
  rule(["create", "delete"], core, ["pods"]),
  rule(["update", "patch"], core, ["pods/status"]),
  rule(["create"], core, ["pods/eviction"]),
  rule(read, core, ["secrets", "configmaps"]),
  rule(["get"], core, ["persistentvolumeclaims", "persistentvolumes"]),
  rule(["get"], core, ["endpoints"]),
  rule(["create", "get", "list", "watch"], "certificates.k8s.io", ["certificatesigningrequests"]),
  rule(["get", "create", "update", "patch", "delete"], "coordination.k8s.io", ["leases"]),
  rule(["get"], "storage.k8s.io", ["volumeattachments"]),
  rule(["create"], core, ["serviceaccounts/token"]),
  rule(["get", "update", "patch"], core, ["persistentvolumeclaims/status"]),
  rule(read, "storage.k8s.io", ["csidrivers"]),
  rule(["get", "create", "update", "patch", "delete"], "storage.k8s.io", ["csinodes"]),
  rule(read, "node.k8s.io", ["runtimeclasses"]),
  rule(["get"], "resource.k8s.io", ["resourceclaims"]),
  rule(["deletecollection"], "resource.k8s.io", ["resourceslices"]),
  rule(["get"], core, ["serviceaccounts"]),
];

const aggregateToEditRules: PolicyRule[] = [
  rule(read, core, ["pods/attach", "pods/proxy", "pods/exec", "pods/portforward", "secrets", "services/proxy"]),
  rule(["impersonate"], core, ["serviceaccounts"]),
  rule(write, core, ["pods", "pods/attach", "pods/proxy", "pods/exec", "pods/portforward"]),
  rule(["create"], core, ["pods/eviction"]),
  rule(write, core, [
    "replicationcontrollers",
    "replicationcontrollers/scale",
    "serviceaccounts",
    "services",
    "services/proxy",
    "persistentvolumeclaims",
    "configmaps",
    "secrets",
    "events",
  ]),
  rule(write, "events.k8s.io", ["events"]),
  rule(["create"], core, ["serviceaccounts/token"]),
  rule(write, "apps", [
    "statefulsets",
    "statefulsets/scale",
    "daemonsets",
    "deployments",
    "deployments/scale",
    "deployments/rollback",
    "replicasets",
    "replicasets/scale",
  ]),
  rule(write, "autoscaling", ["horizontalpodautoscalers"]),
  rule(write, "batch", ["jobs", "cronjobs"]),
  rule(write, "extensions", [
    "daemonsets",
    "deployments",
    "deployments/scale",
    "deployments/rollback",
    "ingresses",
    "replicasets",
    "replicasets/scale",
    "replicationcontrollers/scale",
    "networkpolicies",
  ]),
  rule(write, "policy", ["poddisruptionbudgets"]),
  rule(write, "networking.k8s.io", ["networkpolicies", "ingresses"]),
  rule(readWrite, "coordination.k8s.io", ["leases"]),
  rule(write, "resource.k8s.io", ["resourceclaims", "resourceclaimtemplates"]),
];

const aggregateToViewRules: PolicyRule[] = [
  rule(read, core, [
    "pods",
    "replicationcontrollers",
    "replicationcontrollers/scale",
    "serviceaccounts",
    "services",
    "services/status",
    "endpoints",
    "persistentvolumeclaims",
    "persistentvolumeclaims/status",
    "configmaps",
  ]),
  rule(read, core, [
    "limitranges",
    "resourcequotas",
    "bindings",
    "events",
    "pods/status",
    "resourcequotas/status",
    "namespaces/status",
    "replicationcontrollers/status",
    "pods/log",
  ]),
  rule(read, "events.k8s.io", ["events"]),
  // Reading namespaces at namespace scope reads only that namespace.
  rule(read, core, ["namespaces"]),
  rule(read, "discovery.k8s.io", ["endpointslices"]),
  rule(read, "apps", [
    "controllerrevisions",
    "statefulsets",
    "statefulsets/status",
    "statefulsets/scale",
    "daemonsets",
    "daemonsets/status",
    "deployments",
    "deployments/status",
    "deployments/scale",
    "replicasets",
    "replicasets/status",
    "replicasets/scale",
  ]),
  rule(read, "autoscaling", ["horizontalpodautoscalers", "horizontalpodautoscalers/status"]),
  rule(read, "batch", ["jobs", "jobs/status", "cronjobs", "cronjobs/status"]),
  rule(read, "extensions", [
    "daemonsets",
    "daemonsets/status",
    "deployments",
    "deployments/scale",
    "deployments/status",
    "ingresses",
    "ingresses/status",
    "replicasets",
    "replicasets/scale",
    "replicasets/status",
    "replicationcontrollers/scale",
    "networkpolicies",
  ]),
  rule(read, "policy", ["poddisruptionbudgets", "poddisruptionbudgets/status"]),
  rule(read, "networking.k8s.io", ["networkpolicies", "ingresses", "ingresses/status"]),
  rule(read, "resource.k8s.io", ["resourceclaims", "resourceclaims/status", "resourceclaimtemplates"]),
];

const kubeSchedulerRules: PolicyRule[] = [
  eventsRule,
  // Leader election.
  rule(["create"], "coordination.k8s.io", ["leases"]),
  rule(["get", "list", "update", "watch"], "coordination.k8s.io", ["leases"], ["kube-scheduler"]),
  rule(readWrite, "coordination.k8s.io", ["leasecandidates"]),
  rule(read, core, ["nodes"]),
  rule(["get", "list", "watch", "delete"], core, ["pods"]),
  rule(["create"], core, ["pods/binding", "bindings"]),
  rule(["patch", "update"], core, ["pods/status"]),
  rule(read, core, ["replicationcontrollers", "services"]),
  rule(read, ["apps", "extensions"], ["replicasets"]),
  rule(read, "apps", ["statefulsets"]),
  rule(read, "policy", ["poddisruptionbudgets"]),
  rule(read, core, ["persistentvolumeclaims", "persistentvolumes"]),
  // Delegated authentication and authorization.
  rule(["create"], "authentication.k8s.io", ["tokenreviews"]),
  rule(["create"], "authorization.k8s.io", ["subjectaccessreviews"]),
  rule(read, "storage.k8s.io", ["csinodes"]),
  rule(read, "storage.k8s.io", ["volumeattachments"]),
  rule(read, core, ["namespaces"]),
  rule(read, "storage.k8s.io", ["csidrivers"]),
  rule(read, "storage.k8s.io", ["csistoragecapacities"]),
  // Dynamic resource allocation.
  rule(read, "resource.k8s.io", ["deviceclasses"]),
  rule(readUpdate, "resource.k8s.io", ["resourceclaims"]),
  rule(readUpdate, "resource.k8s.io", ["resourceclaims/status"]),
  rule(readUpdate, core, ["pods/finalizers"]),
  rule(read, "resource.k8s.io", ["resourceslices"]),
];

function signerApprover(signer: string): PolicyRole {
  return clusterRole(`system:certificates.k8s.io:${signer.replace("kubernetes.io/", "")}-approver`, [
    rule(["approve"], "certificates.k8s.io", ["signers"], [signer]),
  ]);
}

export const userClusterRoles: readonly PolicyRole[] = [
  // A root role that can do anything.
  clusterRole("cluster-admin", [rule(["*"], "*", ["*"]), urlRule(["*"], ["*"])]),
  // Enough to tell whether the server is ready and to discover API versions for negotiation.
  clusterRole("system:discovery", [
    urlRule(
      ["get"],
      [
        "/livez",
        "/readyz",
        "/healthz",
        "/version",
        "/version/",
        "/openapi",
        "/openapi/*",
        "/api",
        "/api/*",
        "/apis",
        "/apis/*",
      ],
    ),
  ]),
  // The z-pages join the health and metrics paths in one rule (ComponentFlagz and ComponentStatusz on).
  clusterRole("system:monitoring", [
    urlRule(
      ["get"],
      [
        "/metrics",
        "/metrics/slis",
        "/livez",
        "/readyz",
        "/healthz",
        "/livez/*",
        "/readyz/*",
        "/healthz/*",
        "/flagz",
        "/statusz",
      ],
    ),
    // The kubelets' metrics, read through the nodes/metrics subresource.
    rule(["get"], "", ["nodes/metrics"]),
  ]),
  // What a user needs to learn about themselves.
  clusterRole("system:basic-user", [
    rule(["create"], "authorization.k8s.io", ["selfsubjectaccessreviews", "selfsubjectrulesreviews"]),
    rule(["create"], "authentication.k8s.io", ["selfsubjectreviews"]),
  ]),
  // Insensitive cluster information.
  clusterRole("system:public-info-viewer", [
    urlRule(["get"], ["/livez", "/readyz", "/healthz", "/version", "/version/"]),
  ]),
  aggregatedClusterRole("admin", aggregateToAdmin),
  aggregatedClusterRole("edit", aggregateToEdit, { [aggregateToAdmin]: "true" }),
  aggregatedClusterRole("view", aggregateToView, { [aggregateToEdit]: "true" }),
  clusterRole(
    "system:aggregate-to-admin",
    [
      rule(["create"], "authorization.k8s.io", ["localsubjectaccessreviews"]),
      rule(readWrite, "rbac.authorization.k8s.io", ["roles", "rolebindings"]),
    ],
    { [aggregateToAdmin]: "true" },
  ),
  clusterRole("system:aggregate-to-edit", aggregateToEditRules, { [aggregateToEdit]: "true" }),
  clusterRole("system:aggregate-to-view", aggregateToViewRules, { [aggregateToView]: "true" }),
  clusterRole("system:heapster", [
    rule(read, core, ["events", "pods", "nodes", "namespaces"]),
    rule(read, "extensions", ["deployments"]),
  ]),
  clusterRole("system:node", nodeRules),
  clusterRole("system:node-problem-detector", [
    rule(["get"], core, ["nodes"]),
    rule(["patch"], core, ["nodes/status"]),
    eventsRule,
  ]),
  clusterRole("system:kubelet-api-admin", [
    rule(read, core, ["nodes"]),
    rule(["proxy"], core, ["nodes"]),
    rule(["*"], core, ["nodes/proxy", "nodes/metrics", "nodes/stats", "nodes/log"]),
    rule(["*"], core, ["nodes/pods", "nodes/healthz", "nodes/configz"]),
  ]),
  clusterRole("system:node-bootstrapper", [
    rule(["create", "get", "list", "watch"], "certificates.k8s.io", ["certificatesigningrequests"]),
  ]),
  clusterRole("system:auth-delegator", [
    rule(["create"], "authentication.k8s.io", ["tokenreviews"]),
    rule(["create"], "authorization.k8s.io", ["subjectaccessreviews"]),
  ]),
  clusterRole("system:kube-aggregator", [rule(read, core, ["services", "endpoints"])]),
  clusterRole(kubeControllerManager, [
    eventsRule,
    rule(["create"], "coordination.k8s.io", ["leases"]),
    rule(["get", "update"], "coordination.k8s.io", ["leases"], ["kube-controller-manager"]),
    rule(["create"], core, ["secrets", "serviceaccounts"]),
    rule(["delete"], core, ["secrets"]),
    rule(["get"], core, ["namespaces", "secrets", "serviceaccounts", "configmaps"]),
    rule(["update"], core, ["secrets", "serviceaccounts"]),
    rule(["create"], "authentication.k8s.io", ["tokenreviews"]),
    rule(["create"], "authorization.k8s.io", ["subjectaccessreviews"]),
    rule(["list", "watch"], "*", ["*"]),
    rule(["create"], core, ["serviceaccounts/token"]),
  ]),
  clusterRole(kubeScheduler, kubeSchedulerRules),
  clusterRole("system:volume-scheduler", [
    rule(readUpdate, core, ["persistentvolumes"]),
    rule(read, "storage.k8s.io", ["storageclasses"]),
    rule(readUpdate, core, ["persistentvolumeclaims"]),
  ]),
  clusterRole("system:kube-dns", [rule(["list", "watch"], core, ["endpoints", "services"])]),
  clusterRole("system:persistent-volume-provisioner", [
    rule(["get", "list", "watch", "create", "delete"], core, ["persistentvolumes"]),
    // update lets the provisioner annotate claims.
    rule(["get", "list", "watch", "update"], core, ["persistentvolumeclaims"]),
    rule(read, "storage.k8s.io", ["storageclasses"]),
    // watch lets it wait for a volume's provisioning events.
    rule(["watch"], core, ["events"]),
    eventsRule,
  ]),
  clusterRole("system:certificates.k8s.io:certificatesigningrequests:nodeclient", [
    rule(["create"], "certificates.k8s.io", ["certificatesigningrequests/nodeclient"]),
  ]),
  clusterRole("system:certificates.k8s.io:certificatesigningrequests:selfnodeclient", [
    rule(["create"], "certificates.k8s.io", ["certificatesigningrequests/selfnodeclient"]),
  ]),
  signerApprover("kubernetes.io/kube-apiserver-client"),
  signerApprover("kubernetes.io/kube-apiserver-client-kubelet"),
  signerApprover("kubernetes.io/kubelet-serving"),
  signerApprover("kubernetes.io/legacy-unknown"),
  clusterRole("system:node-proxier", [
    rule(["list", "watch"], core, ["services", "endpoints"]),
    rule(read, core, ["nodes"]),
    eventsRule,
    rule(["list", "watch"], "networking.k8s.io", ["servicecidrs"]),
    rule(["list", "watch"], "discovery.k8s.io", ["endpointslices"]),
  ]),
  clusterRole("system:service-account-issuer-discovery", [
    urlRule(
      ["get"],
      [
        "/.well-known/openid-configuration",
        "/.well-known/openid-configuration/",
        "/openid/v1/jwks",
        "/openid/v1/jwks/",
      ],
    ),
  ]),
];

export const userClusterRoleBindings: readonly PolicyBinding[] = [
  clusterRoleBinding("cluster-admin", groups(mastersGroup)),
  clusterRoleBinding("system:monitoring", groups("system:monitoring")),
  clusterRoleBinding("system:discovery", groups(allAuthenticated)),
  clusterRoleBinding("system:basic-user", groups(allAuthenticated)),
  clusterRoleBinding("system:public-info-viewer", groups(allAuthenticated, allUnauthenticated)),
  clusterRoleBinding("system:node-proxier", users("system:kube-proxy")),
  clusterRoleBinding(kubeControllerManager, users(kubeControllerManager)),
  clusterRoleBinding("system:kube-dns", [serviceAccount("kube-system", "kube-dns")]),
  clusterRoleBinding(kubeScheduler, users(kubeScheduler)),
  clusterRoleBinding("system:volume-scheduler", users(kubeScheduler)),
  // Nodes are authorized by the Node authorizer; this binding is kept without subjects.
  clusterRoleBinding("system:node", []),
  clusterRoleBinding("system:service-account-issuer-discovery", groups("system:serviceaccounts")),
];
