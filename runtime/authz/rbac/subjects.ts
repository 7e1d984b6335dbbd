// Whether a binding's subject is the requesting user (kube's appliesTo in pkg/registry/rbac/validation):
// a User by name, a Group by membership, a ServiceAccount by its user name
// `system:serviceaccount:<namespace>:<name>`, where a RoleBinding's own namespace stands in for a subject
// that leaves its namespace out. Other kinds match nobody.
import { serviceAccountUsername, type UserInfo } from "../../access/user-info.js";

/** rbac/v1 Subject as stored. */
export interface Subject {
  kind?: string;
  apiGroup?: string;
  name?: string;
  namespace?: string;
}

export function subjectMatches(user: UserInfo, subject: Subject, bindingNamespace: string): boolean {
  const name = subject.name ?? "";
  switch (subject.kind) {
    case "User":
      return user.name === name;
    case "Group":
      return user.groups.includes(name);
    case "ServiceAccount": {
      const namespace = subject.namespace || bindingNamespace;
      return namespace !== "" && user.name === serviceAccountUsername(namespace, name);
    }
    default:
      return false;
  }
}

/** The first subject that is `user`, or undefined; `bindingNamespace` is "" for ClusterRoleBindings. */
export function matchingSubject(
  user: UserInfo,
  subjects: readonly Subject[] | undefined,
  bindingNamespace: string,
): Subject | undefined {
  return (subjects ?? []).find((subject) => subjectMatches(user, subject, bindingNamespace));
}
