// The ClusterRoles of kube-controller-manager's controllers (kube's bootstrappolicy/controller_policy.go)
// as kube-apiserver v1.36 creates them with default feature gates: `system:controller:<name>`, each bound
// to the ServiceAccount `kube-system/<name>` that the controller runs as with --use-service-account-credentials.
import type { PolicyRule } from "../rule-matches.js";
import {
  clusterRole,
  clusterRoleBinding,
  eventsRule,
  type PolicyBinding,
  type PolicyRole,
  read,
  readUpdate,
  rule,
  serviceAccount,
} from "./builders.js";

export const controllerRolePrefix = "system:controller:";
const core = "";
const appsGroups = ["apps", "extensions"];

const controllers: Record<string, PolicyRule[]> = {
  "attachdetach-controller": [
    rule(["list", "watch"], core, ["persistentvolumes", "persistentvolumeclaims"]),
    rule(read, core, ["nodes"]),
    rule(["patch", "update"], core, ["nodes/status"]),
    rule(["list", "watch"], core, ["pods"]),
    eventsRule,
    rule(["get", "create", "delete", "list", "watch"], "storage.k8s.io", ["volumeattachments"]),
    rule(read, "storage.k8s.io", ["csidrivers"]),
    rule(read, "storage.k8s.io", ["csinodes"]),
  ],
  "certificate-controller": [
    rule(["get", "list", "watch", "delete"], "certificates.k8s.io", ["certificatesigningrequests"]),
    rule(["update"], "certificates.k8s.io", [
      "certificatesigningrequests/status",
      "certificatesigningrequests/approval",
    ]),
    rule(["approve"], "certificates.k8s.io", ["signers"], ["kubernetes.io/kube-apiserver-client-kubelet"]),
    rule(
      ["sign"],
      "certificates.k8s.io",
      ["signers"],
      [
        "kubernetes.io/legacy-unknown",
        "kubernetes.io/kube-apiserver-client",
        "kubernetes.io/kube-apiserver-client-kubelet",
        "kubernetes.io/kubelet-serving",
      ],
    ),
    rule(["create"], "authorization.k8s.io", ["subjectaccessreviews"]),
    eventsRule,
  ],
  // Full power over clusterroles, to write any aggregated rules.
  "clusterrole-aggregation-controller": [
    rule(["escalate", "get", "list", "watch", "update", "patch"], "rbac.authorization.k8s.io", ["clusterroles"]),
  ],
  "cronjob-controller": [
    rule(["get", "list", "watch", "update"], "batch", ["cronjobs"]),
    rule(["get", "list", "watch", "create", "update", "delete", "patch"], "batch", ["jobs"]),
    rule(["update"], "batch", ["cronjobs/status"]),
    rule(["update"], "batch", ["cronjobs/finalizers"]),
    rule(["list", "delete", "watch"], core, ["pods"]),
    eventsRule,
  ],
  "daemon-set-controller": [
    rule(read, appsGroups, ["daemonsets"]),
    rule(["update"], appsGroups, ["daemonsets/status"]),
    rule(["update"], appsGroups, ["daemonsets/finalizers"]),
    rule(["list", "watch"], core, ["nodes"]),
    rule(["list", "watch", "create", "delete", "patch"], core, ["pods"]),
    rule(["create"], core, ["pods/binding"]),
    rule(["get", "list", "watch", "create", "delete", "update", "patch"], "apps", ["controllerrevisions"]),
    eventsRule,
  ],
  "deployment-controller": [
    rule(["get", "list", "watch", "update"], appsGroups, ["deployments"]),
    rule(["update"], appsGroups, ["deployments/status"]),
    rule(["update"], appsGroups, ["deployments/finalizers"]),
    rule(["get", "list", "watch", "create", "update", "patch", "delete"], appsGroups, ["replicasets"]),
    rule(["get", "list", "watch", "update"], core, ["pods"]),
    eventsRule,
  ],
  "device-taint-eviction-controller": [
    rule(["get", "list", "watch", "delete"], core, ["pods"]),
    rule(["update", "patch"], core, ["pods/status"]),
    rule(read, "resource.k8s.io", ["resourceclaims"]),
    rule(read, "resource.k8s.io", ["resourceslices"]),
    rule(read, "resource.k8s.io", ["deviceclasses"]),
    eventsRule,
  ],
  "disruption-controller": [
    rule(read, appsGroups, ["deployments"]),
    rule(read, appsGroups, ["replicasets"]),
    rule(read, core, ["replicationcontrollers"]),
    rule(read, "policy", ["poddisruptionbudgets"]),
    rule(read, "apps", ["statefulsets"]),
    rule(["update"], "policy", ["poddisruptionbudgets/status"]),
    rule(["patch", "update"], core, ["pods/status"]),
    rule(["get"], "*", ["*/scale"]),
    eventsRule,
  ],
  "endpoint-controller": [
    rule(read, core, ["services", "pods"]),
    rule(["get", "list", "watch", "create", "update", "delete"], core, ["endpoints"]),
    rule(["create"], core, ["endpoints/restricted"]),
    eventsRule,
  ],
  "endpointslice-controller": [
    rule(read, core, ["services", "pods", "nodes"]),
    // Owning its slices with blockOwnerDeletion needs the Service's finalizers.
    rule(["update"], core, ["services/finalizers"]),
    rule(["get", "list", "watch", "create", "update", "delete"], "discovery.k8s.io", ["endpointslices"]),
    eventsRule,
  ],
  "endpointslicemirroring-controller": [
    rule(read, core, ["services", "endpoints"]),
    rule(["update"], core, ["services/finalizers"]),
    rule(["update"], core, ["endpoints/finalizers"]),
    rule(["get", "list", "watch", "create", "update", "delete"], "discovery.k8s.io", ["endpointslices"]),
    eventsRule,
  ],
  "ephemeral-volume-controller": [
    rule(read, core, ["pods"]),
    rule(["update"], core, ["pods/finalizers"]),
    rule(["get", "list", "watch", "create"], core, ["persistentvolumeclaims"]),
    eventsRule,
  ],
  "expand-controller": [
    rule(readUpdate, core, ["persistentvolumes"]),
    rule(["update", "patch"], core, ["persistentvolumeclaims/status"]),
    rule(read, core, ["persistentvolumeclaims"]),
    eventsRule,
  ],
  // List, watch, read, update and delete anything it finds owned.
  "generic-garbage-collector": [rule(["get", "list", "watch", "patch", "update", "delete"], "*", ["*"]), eventsRule],
  "horizontal-pod-autoscaler": [
    rule(read, "autoscaling", ["horizontalpodautoscalers"]),
    rule(["update"], "autoscaling", ["horizontalpodautoscalers/status"]),
    rule(["get", "update"], "*", ["*/scale"]),
    rule(["list", "watch"], core, ["pods"]),
    // Resource, custom and external metrics.
    rule(["list", "watch"], "metrics.k8s.io", ["pods"]),
    rule(read, "custom.metrics.k8s.io", ["*"]),
    rule(read, "external.metrics.k8s.io", ["*"]),
    eventsRule,
  ],
  "job-controller": [
    rule(["get", "list", "watch", "update", "patch"], "batch", ["jobs"]),
    rule(["update"], "batch", ["jobs/status"]),
    rule(["update"], "batch", ["jobs/finalizers"]),
    rule(["list", "watch", "create", "delete", "patch"], core, ["pods"]),
    eventsRule,
  ],
  "legacy-service-account-token-cleaner": [
    rule(["get"], core, ["configmaps"], ["kube-apiserver-legacy-service-account-token-tracking"]),
    rule(["delete", "patch"], core, ["secrets"]),
  ],
  "namespace-controller": [
    rule(["get", "list", "watch", "delete"], core, ["namespaces"]),
    rule(["update"], core, ["namespaces/finalize", "namespaces/status"]),
    rule(["get", "list", "watch", "delete", "deletecollection"], "*", ["*"]),
  ],
  "node-controller": [
    rule(["get", "list", "watch", "update", "delete", "patch"], core, ["nodes"]),
    rule(["patch", "update"], core, ["nodes/status"]),
    // Marking and deleting the pods of lost nodes.
    rule(["patch", "update"], core, ["pods/status"]),
    rule(["list", "watch", "delete", "get"], core, ["pods"]),
    eventsRule,
  ],
  "persistent-volume-binder": [
    rule(["get", "list", "watch", "update", "create", "delete"], core, ["persistentvolumes"]),
    rule(["update"], core, ["persistentvolumes/status"]),
    rule(["get", "list", "watch", "update"], core, ["persistentvolumeclaims"]),
    rule(["update"], core, ["persistentvolumeclaims/status"]),
    rule(["list", "watch", "get", "create", "delete"], core, ["pods"]),
    rule(read, "storage.k8s.io", ["storageclasses"]),
    rule(["list", "watch"], core, ["nodes"]),
    eventsRule,
    rule(["watch"], core, ["events"]),
  ],
  "pod-garbage-collector": [
    rule(["list", "watch", "delete"], core, ["pods"]),
    rule(read, core, ["nodes"]),
    rule(["patch"], core, ["pods/status"]),
  ],
  "pv-protection-controller": [rule(["get", "list", "watch", "update"], core, ["persistentvolumes"]), eventsRule],
  "pvc-protection-controller": [
    rule(["get", "list", "watch", "update"], core, ["persistentvolumeclaims"]),
    rule(["update"], core, ["persistentvolumeclaims/status"]),
    rule(read, core, ["pods"]),
    eventsRule,
  ],
  "replicaset-controller": [
    rule(["get", "list", "watch", "update"], appsGroups, ["replicasets"]),
    rule(["update"], appsGroups, ["replicasets/status"]),
    rule(["update"], appsGroups, ["replicasets/finalizers"]),
    rule(["list", "watch", "patch", "create", "delete"], core, ["pods"]),
    eventsRule,
  ],
  "replication-controller": [
    rule(["get", "list", "watch", "update"], core, ["replicationcontrollers"]),
    rule(["update"], core, ["replicationcontrollers/status"]),
    rule(["update"], core, ["replicationcontrollers/finalizers"]),
    rule(["list", "watch", "patch", "create", "delete"], core, ["pods"]),
    eventsRule,
  ],
  "resource-claim-controller": [
    rule(read, core, ["pods"]),
    rule(["update"], core, ["pods/finalizers"]),
    rule(["get", "list", "watch", "create", "delete"], "resource.k8s.io", ["resourceclaims"]),
    rule(["update", "patch"], "resource.k8s.io", ["resourceclaims", "resourceclaims/status"]),
    rule(["update", "patch"], core, ["pods/status"]),
    eventsRule,
    rule(["update", "patch"], "resource.k8s.io", ["resourceclaims/binding"]),
  ],
  // Counting every namespaced resource.
  "resourcequota-controller": [
    rule(["list", "watch"], "*", ["*"]),
    rule(["update"], core, ["resourcequotas/status"]),
    eventsRule,
  ],
  "root-ca-cert-publisher": [rule(["create", "update"], core, ["configmaps"]), eventsRule],
  "route-controller": [rule(["list", "watch"], core, ["nodes"]), rule(["patch"], core, ["nodes/status"]), eventsRule],
  "selinux-warning-controller": [
    eventsRule,
    rule(read, core, ["persistentvolumes"]),
    rule(read, core, ["persistentvolumeclaims"]),
    rule(read, core, ["pods"]),
    rule(read, "storage.k8s.io", ["csidrivers"]),
  ],
  "service-account-controller": [rule(["create"], core, ["serviceaccounts"]), eventsRule],
  "service-cidrs-controller": [
    rule(["get", "list", "watch", "patch", "update"], "networking.k8s.io", ["servicecidrs"]),
    rule(["patch", "update"], "networking.k8s.io", ["servicecidrs/finalizers"]),
    rule(["patch", "update"], "networking.k8s.io", ["servicecidrs/status"]),
    rule(read, "networking.k8s.io", ["ipaddresses"]),
    eventsRule,
  ],
  "service-controller": [
    rule(read, core, ["services"]),
    rule(["patch", "update"], core, ["services/status"]),
    rule(["list", "watch"], core, ["nodes"]),
    eventsRule,
  ],
  "statefulset-controller": [
    rule(["list", "watch"], core, ["pods"]),
    rule(read, "apps", ["statefulsets"]),
    rule(["update"], "apps", ["statefulsets/status"]),
    rule(["update"], "apps", ["statefulsets/finalizers"]),
    rule(["get", "create", "delete", "update", "patch"], core, ["pods"]),
    rule(["get", "list", "watch", "create", "delete", "update", "patch"], "apps", ["controllerrevisions"]),
    rule(["get", "create", "list", "watch"], core, ["persistentvolumeclaims"]),
    rule(["update", "delete"], core, ["persistentvolumeclaims"]),
    rule(["update"], core, ["pods/finalizers"]),
    eventsRule,
  ],
  "ttl-after-finished-controller": [rule(["get", "list", "watch", "delete"], "batch", ["jobs"]), eventsRule],
  "ttl-controller": [rule(["update", "patch", "list", "watch"], core, ["nodes"]), eventsRule],
  "validatingadmissionpolicy-status-controller": [
    rule(read, "admissionregistration.k8s.io", ["validatingadmissionpolicies"]),
    rule(["get", "patch", "update"], "admissionregistration.k8s.io", ["validatingadmissionpolicies/status"]),
    eventsRule,
  ],
  "volumeattributesclass-protection-controller": [
    rule(read, core, ["persistentvolumeclaims"]),
    rule(read, core, ["persistentvolumes"]),
    rule(["get", "list", "watch", "update"], "storage.k8s.io", ["volumeattributesclasses"]),
    eventsRule,
  ],
};

export const controllerClusterRoles: readonly PolicyRole[] = Object.entries(controllers).map(([name, rules]) =>
  clusterRole(controllerRolePrefix + name, rules),
);

export const controllerClusterRoleBindings: readonly PolicyBinding[] = Object.keys(controllers).map((name) =>
  clusterRoleBinding(controllerRolePrefix + name, [serviceAccount("kube-system", name)]),
);
