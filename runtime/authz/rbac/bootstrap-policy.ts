// kube-apiserver v1.36's default RBAC policy, as its rbac/bootstrap-roles post-start hook creates it:
// the user-facing and component ClusterRoles (cluster-admin, admin/edit/view and their aggregate-to-*
// parts, system:basic-user, system:discovery, …), the controllers' system:controller:* roles, their
// bindings, and the Roles and RoleBindings in kube-system and kube-public. The data lives in
// ./bootstrap-policy/, one module per group of roles.
import type { PolicyBinding, PolicyRole } from "./bootstrap-policy/builders.js";
import { userClusterRoleBindings, userClusterRoles } from "./bootstrap-policy/cluster-roles.js";
import { controllerClusterRoleBindings, controllerClusterRoles } from "./bootstrap-policy/controller-roles.js";
import { namespaceRoleBindings, namespaceRoles, policyNamespaces } from "./bootstrap-policy/namespace-roles.js";

export {
  aggregateToAdmin,
  aggregateToEdit,
  aggregateToView,
  autoUpdateAnnotation,
  bootstrappingLabel,
  type PolicyBinding,
  type PolicyRole,
} from "./bootstrap-policy/builders.js";

export interface BootstrapPolicy {
  clusterRoles: readonly PolicyRole[];
  clusterRoleBindings: readonly PolicyBinding[];
  /** Namespaced Roles, in the namespaces `namespaces` lists. */
  roles: readonly PolicyRole[];
  roleBindings: readonly PolicyBinding[];
  namespaces: readonly string[];
}

/** The whole default policy. Its objects are shared: copy one before changing or writing it. */
export const bootstrapPolicy: BootstrapPolicy = {
  clusterRoles: [...userClusterRoles, ...controllerClusterRoles],
  clusterRoleBindings: [...userClusterRoleBindings, ...controllerClusterRoleBindings],
  roles: namespaceRoles,
  roleBindings: namespaceRoleBindings,
  namespaces: policyNamespaces,
};
