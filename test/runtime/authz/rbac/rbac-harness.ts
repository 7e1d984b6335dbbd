// A ResourceApi over a MemoryStore with a running RbacIndex, the RBAC authorizer behind system:masters
// (kube's chain), and RBAC escalation prevention as admission. Writes are made as the server's own
// controllers unless a user is given, and each returns once the index shows its result.

import type { Attributes } from "../../../../runtime/access/authorizer.js";
import type { UserInfo } from "../../../../runtime/access/user-info.js";
import type { AdmissionRequestInfo } from "../../../../runtime/admission/admission.js";
import { PrivilegedGroupAuthorizer } from "../../../../runtime/authz/privileged-groups.js";
import { RbacEscalationAdmission } from "../../../../runtime/authz/rbac/escalation-admission.js";
import { RbacAuthorizer } from "../../../../runtime/authz/rbac/rbac-authorizer.js";
import {
  clusterRoleBindingKind,
  clusterRoleKind,
  RbacIndex,
  roleBindingKind,
  roleKind,
} from "../../../../runtime/authz/rbac/rbac-index.js";
import type { PolicyRule } from "../../../../runtime/authz/rbac/rule-matches.js";
import type { Subject } from "../../../../runtime/authz/rbac/subjects.js";
import { UnionAuthorizer } from "../../../../runtime/authz/union-authorizer.js";
import type { KubeObject } from "../../../../runtime/object/kube-object.js";
import type { ServedKind } from "../../../../runtime/registry/served-kind.js";
import { ResourceApi } from "../../../../runtime/resources/resource-api.js";
import { MemoryStore } from "../../../../runtime/storage/memory-store.js";
import { builtinKinds } from "../../builtin-kinds.js";
import { eventually } from "../../controllers/controller-harness.js";

const apiVersion = "rbac.authorization.k8s.io/v1";

export function user(name: string, ...groups: string[]): UserInfo {
  return { name, groups: [...groups, "system:authenticated"] };
}

export function serviceAccount(namespace: string, name: string): UserInfo {
  return {
    name: `system:serviceaccount:${namespace}:${name}`,
    groups: ["system:serviceaccounts", `system:serviceaccounts:${namespace}`, "system:authenticated"],
  };
}

export function resource(
  who: UserInfo,
  verb: string,
  apiGroup: string,
  resourceName: string,
  where: { namespace?: string; name?: string; subresource?: string } = {},
): Attributes {
  return {
    user: who,
    verb,
    resourceRequest: true,
    apiGroup,
    apiVersion: "v1",
    resource: resourceName,
    subresource: where.subresource ?? "",
    namespace: where.namespace ?? "",
    name: where.name ?? "",
    path: "",
  };
}

export function nonResource(who: UserInfo, verb: string, path: string): Attributes {
  return { ...resource(who, verb, "", ""), resourceRequest: false, path };
}

export function role(namespace: string, name: string, rules: PolicyRule[]): KubeObject {
  return { apiVersion, kind: "Role", metadata: { namespace, name }, rules };
}

export function clusterRole(name: string, rules: PolicyRule[], extra: Record<string, unknown> = {}): KubeObject {
  return { apiVersion, kind: "ClusterRole", metadata: { name }, rules, ...extra };
}

export function roleBinding(
  namespace: string,
  name: string,
  roleRef: { kind: "Role" | "ClusterRole"; name: string },
  subjects: Subject[],
): KubeObject {
  return {
    apiVersion,
    kind: "RoleBinding",
    metadata: { namespace, name },
    roleRef: { apiGroup: "rbac.authorization.k8s.io", ...roleRef },
    subjects,
  };
}

export function clusterRoleBinding(name: string, roleName: string, subjects: Subject[]): KubeObject {
  return {
    apiVersion,
    kind: "ClusterRoleBinding",
    metadata: { name },
    roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: roleName },
    subjects,
  };
}

export const userSubject = (name: string): Subject => ({ kind: "User", apiGroup: "rbac.authorization.k8s.io", name });
export const groupSubject = (name: string): Subject => ({ kind: "Group", apiGroup: "rbac.authorization.k8s.io", name });

const kindsByName: Record<string, ServedKind> = {
  Role: roleKind,
  ClusterRole: clusterRoleKind,
  RoleBinding: roleBindingKind,
  ClusterRoleBinding: clusterRoleBindingKind,
};

function metaOf(obj: KubeObject): { name: string; namespace?: string; resourceVersion?: string } {
  return obj.metadata as { name: string; namespace?: string; resourceVersion?: string };
}

/** Where an RBAC object is written: its kind, name and namespace. */
export function targetOf(obj: KubeObject): { kind: ServedKind; name: string; namespace?: string } {
  const { name, namespace } = metaOf(obj);
  return { kind: kindsByName[obj.kind as string] as ServedKind, name, ...(namespace ? { namespace } : {}) };
}

export interface RbacHarness {
  api: ResourceApi;
  index: RbacIndex;
  rbac: RbacAuthorizer;
  chain: UnionAuthorizer;
  errors: unknown[];
  /** Creates or updates `obj` (as `as` when given, else as a controller); resolves once the index holds it. */
  write(obj: KubeObject, as?: UserInfo): Promise<KubeObject>;
  remove(obj: KubeObject): Promise<void>;
  close(): Promise<void>;
}

export function requestBy(who: UserInfo): AdmissionRequestInfo {
  return { user: who, warn: () => {}, annotate: () => {} };
}

export async function startRbac(): Promise<RbacHarness> {
  const store = new MemoryStore();
  const api = new ResourceApi({ kinds: builtinKinds(), store });
  const index = new RbacIndex(api);
  const errors: unknown[] = [];
  const abort = new AbortController();
  const running = index.run({ signal: abort.signal, log: (message, error) => errors.push({ message, error }) });
  const rbac = new RbacAuthorizer(index);
  const chain = new UnionAuthorizer([new PrivilegedGroupAuthorizer(), rbac]);
  api.addAdmission(new RbacEscalationAdmission(index, () => chain));
  await index.ready;

  const indexed = (obj: KubeObject): KubeObject | undefined => {
    const { name, namespace = "" } = metaOf(obj);
    switch (obj.kind) {
      case "Role":
        return index.role(namespace, name);
      case "ClusterRole":
        return index.clusterRole(name);
      case "RoleBinding":
        return [...index.roleBindings(namespace)].find((b) => metaOf(b).name === name);
      default:
        return [...index.clusterRoleBindings()].find((b) => metaOf(b).name === name);
    }
  };

  return {
    api,
    index,
    rbac,
    chain,
    errors,
    async write(obj, as) {
      const options = as === undefined ? {} : { request: requestBy(as) };
      const { object } = await api.update(targetOf(obj), structuredClone(obj), options);
      await eventually(() => {
        if (metaOf(indexed(obj) ?? obj).resourceVersion !== metaOf(object).resourceVersion) {
          throw new Error("not indexed yet");
        }
      });
      return object;
    },
    async remove(obj) {
      await api.delete(targetOf(obj));
      await eventually(() => {
        if (indexed(obj) !== undefined) throw new Error("still indexed");
      });
    },
    async close() {
      abort.abort();
      await running;
      api.close();
      await store.close();
    },
  };
}
