// The Roles and RoleBindings kube-apiserver v1.36 creates in kube-system and kube-public (kube's
// bootstrappolicy/namespace_policy.go): leader election, the authentication ConfigMap for extension
// API servers, and the bootstrap token controllers.
import {
  eventsRule,
  type PolicyBinding,
  type PolicyRole,
  read,
  role,
  roleBinding,
  rule,
  serviceAccount,
  users,
} from "./builders.js";

const kubeSystem = "kube-system";
const kubePublic = "kube-public";
const core = "";
const leaderElection = ["watch", "get", "list", "create", "update"];

export const bootstrapSigner = "system:controller:bootstrap-signer";
export const tokenCleaner = "system:controller:token-cleaner";

/** Where the namespaced defaults live; kube-apiserver creates these namespaces before their roles. */
export const policyNamespaces: readonly string[] = [kubeSystem, kubePublic];

export const namespaceRoles: readonly PolicyRole[] = [
  // Leader election for the controller manager and the scheduler.
  role(kubeSystem, "system::leader-locking-kube-controller-manager", [
    rule(leaderElection, "coordination.k8s.io", ["leases"]),
    rule(leaderElection, "coordination.k8s.io", ["leasecandidates"]),
  ]),
  role(kubeSystem, "system::leader-locking-kube-scheduler", [
    rule(leaderElection, "coordination.k8s.io", ["leases"]),
    rule(leaderElection, "coordination.k8s.io", ["leasecandidates"]),
  ]),
  // Extension API servers read the request-header and client CA configuration from this ConfigMap.
  role(kubeSystem, "extension-apiserver-authentication-reader", [
    rule(read, core, ["configmaps"], ["extension-apiserver-authentication"]),
  ]),
  role(kubeSystem, bootstrapSigner, [rule(read, core, ["secrets"])]),
  role(kubeSystem, "system:controller:cloud-provider", [
    rule(["create", "get", "list", "watch"], core, ["configmaps"]),
  ]),
  role(kubeSystem, tokenCleaner, [rule(["delete", ...read], core, ["secrets"]), eventsRule]),
  // The bootstrap signer signs the cluster-info ConfigMap.
  role(kubePublic, bootstrapSigner, [
    rule(read, core, ["configmaps"]),
    rule(["update"], core, ["configmaps"], ["cluster-info"]),
    eventsRule,
  ]),
];

export const namespaceRoleBindings: readonly PolicyBinding[] = [
  roleBinding(kubeSystem, "system::leader-locking-kube-controller-manager", [
    ...users("system:kube-controller-manager"),
    serviceAccount(kubeSystem, "kube-controller-manager"),
    serviceAccount(kubeSystem, "leader-election-controller"),
  ]),
  roleBinding(kubeSystem, "system::leader-locking-kube-scheduler", [
    ...users("system:kube-scheduler"),
    serviceAccount(kubeSystem, "kube-scheduler"),
  ]),
  roleBinding(
    kubeSystem,
    "extension-apiserver-authentication-reader",
    users("system:kube-controller-manager", "system:kube-scheduler"),
    "system::extension-apiserver-authentication-reader",
  ),
  roleBinding(kubeSystem, bootstrapSigner, [serviceAccount(kubeSystem, "bootstrap-signer")]),
  roleBinding(kubeSystem, "system:controller:cloud-provider", [serviceAccount(kubeSystem, "cloud-provider")]),
  roleBinding(kubeSystem, tokenCleaner, [serviceAccount(kubeSystem, "token-cleaner")]),
  roleBinding(kubePublic, bootstrapSigner, [serviceAccount(kubeSystem, "bootstrap-signer")]),
];
