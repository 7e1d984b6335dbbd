// The building blocks of kube-apiserver's default RBAC policy (kube's bootstrappolicy and its rule
// builder): verb sets, rules with every list sorted as kube's builder sorts them, and roles and bindings
// carrying the `kubernetes.io/bootstrapping: rbac-defaults` label and the autoupdate annotation.

import type { LabelSelectorObject } from "../../../selection/label-selector-object.js";
import { rbacGroup } from "../rbac-index.js";
import type { PolicyRule } from "../rule-matches.js";
import type { Subject } from "../subjects.js";

export const rbacApiVersion = `${rbacGroup}/v1`;
export const bootstrappingLabel = "kubernetes.io/bootstrapping";
export const autoUpdateAnnotation = "rbac.authorization.kubernetes.io/autoupdate";
export const aggregateToAdmin = "rbac.authorization.k8s.io/aggregate-to-admin";
export const aggregateToEdit = "rbac.authorization.k8s.io/aggregate-to-edit";
export const aggregateToView = "rbac.authorization.k8s.io/aggregate-to-view";

export const read = ["get", "list", "watch"];
export const write = ["create", "update", "patch", "delete", "deletecollection"];
export const readWrite = [...read, ...write];
export const readUpdate = [...read, "update", "patch"];

export interface PolicyMetadata {
  name: string;
  namespace?: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

export interface AggregationRule {
  clusterRoleSelectors?: LabelSelectorObject[];
}

/** A ClusterRole or Role as kube-apiserver creates it. */
export interface PolicyRole {
  apiVersion: string;
  kind: "ClusterRole" | "Role";
  metadata: PolicyMetadata;
  rules?: PolicyRule[];
  aggregationRule?: AggregationRule;
}

export interface RoleRef {
  apiGroup: string;
  kind: string;
  name: string;
}

/** A ClusterRoleBinding or RoleBinding as kube-apiserver creates it. */
export interface PolicyBinding {
  apiVersion: string;
  kind: "ClusterRoleBinding" | "RoleBinding";
  metadata: PolicyMetadata;
  roleRef: RoleRef;
  subjects?: Subject[];
}

const sorted = (values: readonly string[]): string[] => [...values].sort();

/** A resource rule; kube's builder sorts verbs, groups, resources and names. */
export function rule(
  verbs: readonly string[],
  groups: string | readonly string[],
  resources: readonly string[],
  names: readonly string[] = [],
): PolicyRule {
  return {
    verbs: sorted(verbs),
    apiGroups: sorted(typeof groups === "string" ? [groups] : groups),
    resources: sorted(resources),
    ...(names.length === 0 ? {} : { resourceNames: sorted(names) }),
  };
}

export function urlRule(verbs: readonly string[], urls: readonly string[]): PolicyRule {
  return { verbs: sorted(verbs), nonResourceURLs: sorted(urls) };
}

/** kube's eventsRule: writing events in both the core and the events.k8s.io group. */
export const eventsRule = rule(["create", "update", "patch"], ["", "events.k8s.io"], ["events"]);

function metadata(name: string, labels: Record<string, string> = {}, namespace?: string): PolicyMetadata {
  return {
    name,
    ...(namespace === undefined ? {} : { namespace }),
    labels: { ...labels, [bootstrappingLabel]: "rbac-defaults" },
    annotations: { [autoUpdateAnnotation]: "true" },
  };
}

export function clusterRole(name: string, rules: PolicyRule[], labels?: Record<string, string>): PolicyRole {
  return { apiVersion: rbacApiVersion, kind: "ClusterRole", metadata: metadata(name, labels), rules };
}

/** A ClusterRole whose rules the aggregation controller fills from the roles labelled `selectLabel: "true"`. */
export function aggregatedClusterRole(name: string, selectLabel: string, labels?: Record<string, string>): PolicyRole {
  return {
    apiVersion: rbacApiVersion,
    kind: "ClusterRole",
    metadata: metadata(name, labels),
    aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [selectLabel]: "true" } }] },
  };
}

export function role(namespace: string, name: string, rules: PolicyRule[]): PolicyRole {
  return { apiVersion: rbacApiVersion, kind: "Role", metadata: metadata(name, {}, namespace), rules };
}

/** A ClusterRoleBinding named after its role unless `name` says otherwise; no subjects are left out. */
export function clusterRoleBinding(roleName: string, subjects: Subject[], name = roleName): PolicyBinding {
  return {
    apiVersion: rbacApiVersion,
    kind: "ClusterRoleBinding",
    metadata: metadata(name),
    roleRef: { apiGroup: rbacGroup, kind: "ClusterRole", name: roleName },
    ...(subjects.length === 0 ? {} : { subjects }),
  };
}

export function roleBinding(namespace: string, roleName: string, subjects: Subject[], name = roleName): PolicyBinding {
  return {
    apiVersion: rbacApiVersion,
    kind: "RoleBinding",
    metadata: metadata(name, {}, namespace),
    roleRef: { apiGroup: rbacGroup, kind: "Role", name: roleName },
    subjects,
  };
}

export const users = (...names: string[]): Subject[] =>
  names.map((name) => ({ apiGroup: rbacGroup, kind: "User", name }));
export const groups = (...names: string[]): Subject[] =>
  names.map((name) => ({ apiGroup: rbacGroup, kind: "Group", name }));
export const serviceAccount = (namespace: string, name: string): Subject => ({
  kind: "ServiceAccount",
  name,
  namespace,
});
