// The static rules the Node authorizer grants every node for resources it does not subdivide: the rules
// of kube's bootstrap policy NodeRules() (the `system:node` ClusterRole) in v1.36 with its default
// feature gates (DynamicResourceAllocation on, ClusterTrustBundle off). Facts taken from Kubernetes;
// kept here so the Node authorizer does not depend on the bootstrap policy objects.
import type { PolicyRule } from "../rbac/rule-matches.js";

const read = ["get", "list", "watch"];

export const nodeRules: readonly PolicyRule[] = [
  { verbs: ["create"], apiGroups: ["authentication.k8s.io"], resources: ["tokenreviews"] },
  {
    verbs: ["create"],
    apiGroups: ["authorization.k8s.io"],
    resources: ["subjectaccessreviews", "localsubjectaccessreviews"],
  },
  { verbs: read, apiGroups: [""], resources: ["services"] },
  { verbs: ["create", "get", "list", "watch"], apiGroups: [""], resources: ["nodes"] },
  { verbs: ["update", "patch"], apiGroups: [""], resources: ["nodes/status"] },
  { verbs: ["update", "patch"], apiGroups: [""], resources: ["nodes"] },
  { verbs: ["create", "update", "patch"], apiGroups: [""], resources: ["events"] },
  { verbs: read, apiGroups: [""], resources: ["pods"] },
  { verbs: ["create", "delete"], apiGroups: [""], resources: ["pods"] },
  { verbs: ["update", "patch"], apiGroups: [""], resources: ["pods/status"] },
  { verbs: ["create"], apiGroups: [""], resources: ["pods/eviction"] },
  { verbs: read, apiGroups: [""], resources: ["secrets", "configmaps"] },
  { verbs: ["get"], apiGroups: [""], resources: ["persistentvolumeclaims", "persistentvolumes"] },
  { verbs: ["get"], apiGroups: [""], resources: ["endpoints"] },
  {
    verbs: ["create", "get", "list", "watch"],
    apiGroups: ["certificates.k8s.io"],
    resources: ["certificatesigningrequests"],
  },
  { verbs: ["get", "create", "update", "patch", "delete"], apiGroups: ["coordination.k8s.io"], resources: ["leases"] },
  { verbs: ["get"], apiGroups: ["storage.k8s.io"], resources: ["volumeattachments"] },
  { verbs: ["create"], apiGroups: [""], resources: ["serviceaccounts/token"] },
  { verbs: ["get", "update", "patch"], apiGroups: [""], resources: ["persistentvolumeclaims/status"] },
  { verbs: ["get", "watch", "list"], apiGroups: ["storage.k8s.io"], resources: ["csidrivers"] },
  { verbs: ["get", "create", "update", "patch", "delete"], apiGroups: ["storage.k8s.io"], resources: ["csinodes"] },
  { verbs: read, apiGroups: ["node.k8s.io"], resources: ["runtimeclasses"] },
  { verbs: ["get"], apiGroups: ["resource.k8s.io"], resources: ["resourceclaims"] },
];
