// RBAC's privilege escalation prevention, which kube-apiserver builds into its RBAC storage and kapi
// runs as a validating admission plugin. Writing a Role or ClusterRole needs rules the writer holds
// (in the role's namespace, or cluster-wide) or the `escalate` verb on it; binding a role needs the
// `bind` verb on it or every rule it grants. Members of system:masters and the server's own
// controllers may do anything; a change of nothing but owner references and finalizers (the garbage
// collector's) is not checked.

import type { Authorizer } from "../../access/authorizer.js";
import { mastersGroup, type UserInfo } from "../../access/user-info.js";
import type { AdmissionAttributes, AdmissionPlugin } from "../../admission/admission.js";
import { forbidden, notFound } from "../../errors/status-error.js";
import type { KubeObject } from "../../object/kube-object.js";
import { groupResource } from "../../registry/kinds.js";
import { semanticEqual } from "../../validation/field-rules.js";
import { escalationMessage } from "./escalation.js";
import { type RbacIndex, rbacGroup } from "./rbac-index.js";
import type { PolicyRule } from "./rule-matches.js";
import { type RoleRef, RuleResolver } from "./rule-resolver.js";

/** What an aggregationRule may gather: everything, so using one takes cluster-admin's rules. */
const fullAuthority: PolicyRule[] = [
  { verbs: ["*"], apiGroups: ["*"], resources: ["*"] },
  { verbs: ["*"], nonResourceURLs: ["*"] },
];

/** Metadata the garbage collector changes, and what the server sets on every write. */
const garbageCollectionMeta = ["ownerReferences", "finalizers", "selfLink", "resourceVersion", "managedFields"];

/** kube's IsOnlyMutatingGCFields. */
function onlyGarbageCollectionFields(object: KubeObject, old: KubeObject): boolean {
  const strip = (o: KubeObject) => {
    const meta = { ...(o.metadata as Record<string, unknown>) };
    for (const field of garbageCollectionMeta) delete meta[field];
    return { ...o, metadata: meta };
  };
  return semanticEqual(strip(object), strip(old));
}

function hasAggregationRule(role: KubeObject | undefined): boolean {
  const rule = role?.aggregationRule as { clusterRoleSelectors?: unknown[] } | undefined;
  return (rule?.clusterRoleSelectors ?? []).length > 0;
}

export class RbacEscalationAdmission implements AdmissionPlugin {
  readonly name = "RBACEscalationPrevention";
  private readonly resolver: RuleResolver;

  /** `authorizer` is the server's whole chain, asked for `escalate` and `bind`; it is built after this plugin. */
  constructor(
    index: RbacIndex,
    private readonly authorizer: () => Authorizer,
  ) {
    this.resolver = new RuleResolver(index);
  }

  async validate(a: AdmissionAttributes): Promise<void> {
    const user = a.request?.user;
    const object = a.object;
    if (user === undefined || object === undefined || a.operation === "DELETE") return;
    if (a.kind.group !== rbacGroup || a.subresource !== undefined) return;
    if (user.groups.includes(mastersGroup)) return;
    if (a.oldObject !== undefined && onlyGarbageCollectionFields(object, a.oldObject)) return;
    const resource = a.kind.resource.plural;
    if (resource === "roles" || resource === "clusterroles") await this.checkRole(a, user, object);
    else if (resource === "rolebindings" || resource === "clusterrolebindings")
      await this.checkBinding(a, user, object);
  }

  private async checkRole(a: AdmissionAttributes, user: UserInfo, role: KubeObject): Promise<void> {
    const namespace = a.namespace ?? "";
    // kube asks with the request's name, which a create (a POST to the collection) does not have.
    const name = a.operation === "UPDATE" ? a.name : "";
    if (await this.allowed(user, "escalate", rbacGroup, a.kind.resource.plural, namespace, name)) return;
    const held = this.resolver.rulesFor(user, namespace);
    const message = escalationMessage(user, held, (role.rules as PolicyRule[] | undefined) ?? []);
    if (message !== undefined) throw forbidden(groupResource(a.kind), a.name, message);
    if (hasAggregationRule(role) || hasAggregationRule(a.oldObject)) {
      if (escalationMessage(user, held, fullAuthority) !== undefined) {
        throw forbidden(groupResource(a.kind), a.name, "must have cluster-admin privileges to use the aggregationRule");
      }
    }
  }

  private async checkBinding(a: AdmissionAttributes, user: UserInfo, binding: KubeObject): Promise<void> {
    const namespace = a.kind.resource.scope === "Namespaced" ? (a.namespace ?? "") : "";
    // Validation has run: the reference names a Role (RoleBindings only) or a ClusterRole.
    const roleRef = (binding.roleRef ?? {}) as RoleRef;
    const roleResource = roleRef.kind === "Role" ? "roles" : "clusterroles";
    const roleName = roleRef.name ?? "";
    if (await this.allowed(user, "bind", roleRef.apiGroup ?? "", roleResource, namespace, roleName)) return;
    const rules = this.resolver.roleRefRules(roleRef, namespace);
    if (rules === undefined) throw notFound({ group: rbacGroup, name: roleResource }, roleName);
    const message = escalationMessage(user, this.resolver.rulesFor(user, namespace), rules);
    if (message !== undefined) throw forbidden(groupResource(a.kind), a.name, message);
  }

  private async allowed(
    user: UserInfo,
    verb: string,
    apiGroup: string,
    resource: string,
    namespace: string,
    name: string,
  ): Promise<boolean> {
    const decision = await this.authorizer().authorize({
      user,
      verb,
      resourceRequest: true,
      apiGroup,
      apiVersion: "*",
      resource,
      subresource: "",
      namespace,
      name,
      path: "",
    });
    return decision.decision === "allow";
  }
}
