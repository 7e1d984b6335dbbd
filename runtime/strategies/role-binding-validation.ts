// What RoleBindings and ClusterRoleBindings share in kube-apiserver's RBAC validation: the role they
// refer to, which may not change, and their subjects, whose API group defaults from their kind.
import { type FieldError, invalid, notSupported, required } from "../errors/field-error.js";
import { child, index } from "../errors/field-path.js";
import type { KubeObject } from "../object/kube-object.js";
import { semanticEqual } from "../validation/field-rules.js";
import { dnsSubdomainErrors, pathSegmentErrors } from "../validation/name-formats.js";
import { asObject, type JsonObject, listItems } from "../validation/walk.js";

const rbacGroup = "rbac.authorization.k8s.io";

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** SetDefaults_Subject: users and groups are RBAC's; service accounts are core's. */
export function defaultSubjects(obj: KubeObject): void {
  for (const item of listItems(obj.subjects)) {
    const subject = asObject(item);
    if (subject === undefined || text(subject.apiGroup) !== "") continue;
    if (subject.kind === "User" || subject.kind === "Group") subject.apiGroup = rbacGroup;
  }
}

function validateRoleRef(roleRef: JsonObject, kinds: readonly string[]): FieldError[] {
  const errs: FieldError[] = [];
  const apiGroup = text(roleRef.apiGroup);
  if (apiGroup !== rbacGroup) errs.push(notSupported("roleRef.apiGroup", apiGroup, [rbacGroup]));
  const kind = text(roleRef.kind);
  if (!kinds.includes(kind)) errs.push(notSupported("roleRef.kind", kind, kinds));
  // An absent name is the schema's to report; an empty one is kube's.
  if (roleRef.name === "") errs.push(required("roleRef.name"));
  else if (typeof roleRef.name === "string") {
    for (const msg of pathSegmentErrors(roleRef.name)) errs.push(invalid("roleRef.name", roleRef.name, msg));
  }
  return errs;
}

function validateSubject(subject: JsonObject, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = text(subject.name);
  const apiGroup = text(subject.apiGroup);
  if (name === "") errs.push(required(child(path, "name")));
  switch (subject.kind) {
    case "ServiceAccount":
      if (name !== "") for (const msg of dnsSubdomainErrors(name)) errs.push(invalid(child(path, "name"), name, msg));
      if (apiGroup !== "") errs.push(notSupported(child(path, "apiGroup"), apiGroup, [""]));
      if (!namespaced && text(subject.namespace) === "") errs.push(required(child(path, "namespace")));
      break;
    case "User":
    case "Group":
      if (name === "") {
        const what = subject.kind === "User" ? "user" : "group";
        errs.push(invalid(child(path, "name"), name, `${what} name cannot be empty`));
      }
      if (apiGroup !== rbacGroup) errs.push(notSupported(child(path, "apiGroup"), apiGroup, [rbacGroup]));
      break;
    default:
      errs.push(notSupported(child(path, "kind"), subject.kind ?? "", ["ServiceAccount", "User", "Group"]));
  }
  return errs;
}

/**
 * A binding's role and subjects. `namespaced` for a RoleBinding: it may name a Role, and its service
 * account subjects may leave their namespace out.
 */
export function validateBinding(obj: KubeObject, old: KubeObject | undefined, namespaced: boolean): FieldError[] {
  const roleRef = asObject(obj.roleRef) ?? {};
  const errs = validateRoleRef(roleRef, namespaced ? ["Role", "ClusterRole"] : ["ClusterRole"]);
  listItems(obj.subjects).forEach((subject, i) => {
    errs.push(...validateSubject(asObject(subject) ?? {}, namespaced, index("subjects", i)));
  });
  if (old !== undefined && !semanticEqual(roleRef, asObject(old.roleRef) ?? {})) {
    errs.push(invalid("roleRef", obj.roleRef ?? null, "cannot change roleRef"));
  }
  return errs;
}
