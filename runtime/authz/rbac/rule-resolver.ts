// The rules a user holds through RBAC (kube's DefaultRuleResolver): those of the ClusterRoles every
// ClusterRoleBinding naming the user refers to, then, in a namespace, those of the Roles and ClusterRoles
// that namespace's RoleBindings naming the user refer to. A binding whose role is missing contributes an
// error and no rules; rules are additive, so what was found still counts. Answers are synchronous, read
// from the RbacIndex.
import type { UserInfo } from "../../access/user-info.js";
import { goQuote } from "../../errors/go-format.js";
import type { KubeObject } from "../../object/kube-object.js";
import { type RbacIndex, rbacGroup } from "./rbac-index.js";
import type { PolicyRule } from "./rule-matches.js";
import { matchingSubject, type Subject } from "./subjects.js";

/** rbac/v1 RoleRef as stored. */
export interface RoleRef {
  apiGroup?: string;
  kind?: string;
  name?: string;
}

/** A role reference that did not resolve: the role is missing, or the kind is not Role or ClusterRole. */
export interface ResolutionError {
  roleRef: RoleRef;
  /** The binding's namespace, "" for a ClusterRoleBinding. */
  namespace: string;
}

/** Where a rule comes from, as kube's allow reason names it. */
export interface RuleSource {
  binding: KubeObject;
  subject: Subject;
}

/** Returns false to stop visiting. */
export type RuleVisitor = (
  source: RuleSource | undefined,
  rule: PolicyRule | undefined,
  error: ResolutionError | undefined,
) => boolean;

export interface ResolvedRules {
  rules: PolicyRule[];
  errors: ResolutionError[];
}

/**
 * The words of a resolution error. kube's authorizer reads roles from informer listers, whose NotFound
 * names the resource in the singular (`clusterrole.rbac.authorization.k8s.io "x" not found`); its
 * escalation checks read them from storage, which names it in the plural.
 */
export function resolutionMessage(error: ResolutionError, from: "lister" | "storage"): string {
  const { kind = "", name = "" } = error.roleRef;
  if (kind !== "Role" && kind !== "ClusterRole") return `unsupported role reference kind: ${goQuote(kind)}`;
  const singular = kind.toLowerCase();
  const resource = from === "lister" ? singular : `${singular}s`;
  return `${resource}.${rbacGroup} ${goQuote(name)} not found`;
}

function metaOf(object: KubeObject): { name: string; namespace: string } {
  const meta = object.metadata as { name?: string; namespace?: string };
  return { name: meta.name ?? "", namespace: meta.namespace ?? "" };
}

export class RuleResolver {
  constructor(private readonly index: RbacIndex) {}

  /** The rules of the role a binding in `namespace` ("" for a ClusterRoleBinding) refers to. */
  roleRefRules(roleRef: RoleRef, namespace: string): readonly PolicyRule[] | undefined {
    const name = roleRef.name ?? "";
    let role: KubeObject | undefined;
    if (roleRef.kind === "Role") role = this.index.role(namespace, name);
    else if (roleRef.kind === "ClusterRole") role = this.index.clusterRole(name);
    return role === undefined ? undefined : ((role.rules as PolicyRule[] | undefined) ?? []);
  }

  visitRulesFor(user: UserInfo, namespace: string, visitor: RuleVisitor): void {
    if (!this.visitBindings(user, this.index.clusterRoleBindings(), "", visitor)) return;
    if (namespace !== "") this.visitBindings(user, this.index.roleBindings(namespace), namespace, visitor);
  }

  /** Every rule `user` holds in `namespace` ("" for cluster-wide rules only), and the references that failed. */
  rulesFor(user: UserInfo, namespace: string): ResolvedRules {
    const out: ResolvedRules = { rules: [], errors: [] };
    this.visitRulesFor(user, namespace, (_source, rule, error) => {
      if (rule !== undefined) out.rules.push(rule);
      if (error !== undefined) out.errors.push(error);
      return true;
    });
    return out;
  }

  private visitBindings(
    user: UserInfo,
    bindings: Iterable<KubeObject>,
    namespace: string,
    visitor: RuleVisitor,
  ): boolean {
    for (const binding of bindings) {
      const subject = matchingSubject(user, binding.subjects as Subject[] | undefined, namespace);
      if (subject === undefined) continue;
      const roleRef = (binding.roleRef ?? {}) as RoleRef;
      const rules = this.roleRefRules(roleRef, namespace);
      if (rules === undefined) {
        if (!visitor(undefined, undefined, { roleRef, namespace })) return false;
        continue;
      }
      for (const rule of rules) if (!visitor({ binding, subject }, rule, undefined)) return false;
    }
    return true;
  }
}

function describeSubject(subject: Subject, bindingNamespace: string): string {
  const kind = subject.kind ?? "";
  const name = subject.name ?? "";
  if (kind === "ServiceAccount") return `${kind} ${goQuote(`${name}/${subject.namespace || bindingNamespace}`)}`;
  return `${kind} ${goQuote(name)}`;
}

/** kube's describer: `ClusterRoleBinding "b" of ClusterRole "r" to User "u"`, `RoleBinding "b/ns" of …`. */
export function describeSource(source: RuleSource): string {
  const { name, namespace } = metaOf(source.binding);
  const roleRef = (source.binding.roleRef ?? {}) as RoleRef;
  const role = `${roleRef.kind ?? ""} ${goQuote(roleRef.name ?? "")}`;
  const binding =
    namespace === "" ? `ClusterRoleBinding ${goQuote(name)}` : `RoleBinding ${goQuote(`${name}/${namespace}`)}`;
  return `${binding} of ${role} to ${describeSubject(source.subject, namespace)}`;
}
