// kube's OwnerReferencesPermissionEnforcement admission: who changes an object's ownerReferences must be
// allowed to delete the object (not asked on create: who may not create the object could not set them at
// all), and who makes a reference block its owner's deletion must be allowed to update the owner's
// `finalizers` subresource. Pod status writes are exempt, as kube exempts them.
import { isDeepStrictEqual } from "node:util";
import type { Attributes, Authorizer } from "../../access/authorizer.js";
import type { UserInfo } from "../../access/user-info.js";
import type { KindRegistry } from "../../registry/kind-registry.js";
import type { AdmissionAttributes, AdmissionPlugin } from "../admission.js";
import { admissionForbidden } from "../admission-forbidden.js";

interface OwnerReference {
  apiVersion?: string;
  kind?: string;
  name?: string;
  uid?: string;
  blockOwnerDeletion?: boolean;
}

const ownerReferencesOf = (obj: unknown): OwnerReference[] =>
  (obj as { metadata?: { ownerReferences?: OwnerReference[] } } | undefined)?.metadata?.ownerReferences ?? [];

function changesOwnerReferences(a: AdmissionAttributes): boolean {
  const now = ownerReferencesOf(a.object);
  if (a.oldObject === undefined) return now.length > 0;
  return !isDeepStrictEqual(ownerReferencesOf(a.oldObject), now);
}

/** References that block their owner's deletion now and did not before (new ones, or turned on). */
function newlyBlocking(a: AdmissionAttributes): OwnerReference[] {
  const blocking = ownerReferencesOf(a.object).filter((ref) => ref.blockOwnerDeletion === true);
  if (a.oldObject === undefined) return blocking;
  const before = new Map(ownerReferencesOf(a.oldObject).map((ref) => [ref.uid, ref]));
  return blocking.filter((ref) => before.get(ref.uid)?.blockOwnerDeletion !== true);
}

/** Go's schema.ParseGroupVersion. */
function parseGroupVersion(apiVersion: string): { group: string; version: string } {
  if (apiVersion === "" || apiVersion === "/") return { group: "", version: "" };
  const parts = apiVersion.split("/");
  if (parts.length === 1) return { group: "", version: apiVersion };
  if (parts.length === 2) return { group: parts[0] as string, version: parts[1] as string };
  throw new Error(`unexpected GroupVersion string: ${apiVersion}`);
}

function resourceRecord(user: UserInfo, fields: Partial<Attributes>): Attributes {
  return {
    user,
    verb: "",
    resourceRequest: true,
    apiGroup: "",
    apiVersion: "",
    resource: "",
    subresource: "",
    namespace: "",
    name: "",
    path: "",
    ...fields,
  };
}

/** kube prints the authorizer's reason and error as `%v, %v`; no error prints as Go's nil. */
const explained = (decision: { reason: string; error?: string }) => `${decision.reason}, ${decision.error ?? "<nil>"}`;

export function ownerReferencesPermissionEnforcement(
  kinds: KindRegistry,
  authorizer: () => Authorizer,
): AdmissionPlugin {
  async function ownerRecord(ref: OwnerReference, a: AdmissionAttributes, user: UserInfo): Promise<Attributes> {
    const gv = parseGroupVersion(ref.apiVersion ?? "");
    const kind = kinds.kindOf(gv.group, gv.version, ref.kind ?? "");
    if (kind === undefined) {
      const where = gv.group === "" ? gv.version : `${gv.group}/${gv.version}`;
      throw new Error(`no matches for kind "${ref.kind ?? ""}" in version "${where}"`);
    }
    return resourceRecord(user, {
      verb: "update",
      apiGroup: kind.group,
      apiVersion: kind.version,
      resource: kind.resource.plural,
      subresource: "finalizers",
      name: ref.name ?? "",
      // A namespaced owner is in the dependent's namespace.
      namespace: kind.resource.scope === "Namespaced" ? (a.namespace ?? "") : "",
    });
  }

  return {
    name: "OwnerReferencesPermissionEnforcement",
    async validate(a) {
      if (a.operation !== "CREATE" && a.operation !== "UPDATE") return;
      // In-server controllers write with the server's own authority.
      const user = a.request?.user;
      if (user === undefined) return;
      if (a.kind.group === "" && a.kind.resource.plural === "pods" && a.subresource === "status") return;
      if (!changesOwnerReferences(a)) return;
      const authz = authorizer();
      if (a.operation !== "CREATE") {
        const decision = await authz.authorize(
          resourceRecord(user, {
            verb: "delete",
            namespace: a.namespace ?? "",
            apiGroup: a.kind.group,
            apiVersion: a.kind.version,
            resource: a.kind.resource.plural,
            subresource: a.subresource ?? "",
            name: a.name,
          }),
        );
        if (decision.decision !== "allow") {
          throw admissionForbidden(a, `cannot set an ownerRef on a resource you can't delete: ${explained(decision)}`);
        }
      }
      const blocking = newlyBlocking(a);
      if (blocking.length === 0) return;
      const finalizeAnything = resourceRecord(user, {
        verb: "update",
        apiGroup: "*",
        apiVersion: "*",
        resource: "*",
        subresource: "finalizers",
        name: "*",
      });
      if ((await authz.authorize(finalizeAnything)).decision === "allow") return;
      for (const ref of blocking) {
        let record: Attributes;
        try {
          record = await ownerRecord(ref, a, user);
        } catch (error) {
          throw admissionForbidden(
            a,
            `cannot set blockOwnerDeletion in this case because cannot find RESTMapping for APIVersion ${ref.apiVersion ?? ""} Kind ${ref.kind ?? ""}: ${(error as Error).message}`,
          );
        }
        const decision = await authz.authorize(record);
        if (decision.decision !== "allow") {
          throw admissionForbidden(
            a,
            `cannot set blockOwnerDeletion if an ownerReference refers to a resource you can't set finalizers on: ${explained(decision)}`,
          );
        }
      }
    },
  };
}
