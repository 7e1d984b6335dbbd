// kube-apiserver's NamespaceLifecycle admission: namespaced writes need an existing namespace, a
// terminating namespace takes no new objects, and the namespaces the system depends on cannot be deleted.
// As kube, it trusts the watch cache first and reads consistently only when that shows no namespace or
// when this plugin saw the namespace deleted recently (the cache may not have caught up).

import { namespaces as namespaceKind } from "../controllers/core-kinds.js";
import { forbidden, notFound, type StatusError } from "../errors/status-error.js";
import type { KubeObject } from "../object/kube-object.js";
import { groupResource } from "../registry/kinds.js";
import type { ResourceApi } from "../resources/resource-api.js";
import { type AdmissionAttributes, type AdmissionPlugin, isNamespaceRequest } from "./admission.js";
import { admissionForbidden } from "./admission-forbidden.js";

/** The cause kube attaches to a create refused in a terminating namespace; controllers test for it. */
export const namespaceTerminatingCause = "NamespaceTerminating";

/** kube's immortal namespaces: metav1.NamespaceDefault, NamespaceSystem, NamespacePublic. */
const immortalNamespaces: ReadonlySet<string> = new Set(["default", "kube-system", "kube-public"]);

/** Review kinds anyone may create in any namespace: answering NotFound would reveal which namespaces exist. */
const accessReviews = new Set(["authorization.k8s.io/localsubjectaccessreviews"]);

/** How long a namespace deleted through this plugin is read consistently (kube's forceLiveLookupTTL). */
const liveLookupMs = 30_000;
const liveLookupEntries = 100;

/** Terminating: kube's delete sets the phase together with deletionTimestamp; either one says so. */
export function isTerminating(namespace: KubeObject): boolean {
  const phase = (namespace.status as { phase?: string } | undefined)?.phase;
  return (
    phase === "Terminating" || (namespace.metadata as { deletionTimestamp?: string }).deletionTimestamp !== undefined
  );
}

function terminating(a: AdmissionAttributes, namespace: string): StatusError {
  const error = admissionForbidden(
    a,
    `unable to create new content in namespace ${namespace} because it is being terminated`,
  );
  const cause = {
    reason: namespaceTerminatingCause,
    message: `namespace ${namespace} is being terminated`,
    field: "metadata.namespace",
  };
  // forbidden() always names the object, so the details exist; kube appends its cause to them.
  const details = error.status.details;
  if (details !== undefined) details.causes = [...(details.causes ?? []), cause];
  return error;
}

export function namespaceLifecycle(api: ResourceApi): AdmissionPlugin {
  const recentlyDeleted = new Map<string, number>();

  function forceLiveLookup(namespace: string): boolean {
    const until = recentlyDeleted.get(namespace);
    if (until === undefined) return false;
    if (until > Date.now()) return true;
    recentlyDeleted.delete(namespace);
    return false;
  }

  function rememberDeleted(namespace: string): void {
    recentlyDeleted.delete(namespace);
    recentlyDeleted.set(namespace, Date.now() + liveLookupMs);
    if (recentlyDeleted.size > liveLookupEntries) {
      const oldest = recentlyDeleted.keys().next().value as string;
      recentlyDeleted.delete(oldest);
    }
  }

  async function read(name: string, consistent: boolean): Promise<KubeObject | undefined> {
    try {
      const options = consistent ? {} : { resourceVersion: "0" };
      return (await api.get({ kind: namespaceKind, name }, options)).object;
    } catch (error) {
      if ((error as { code?: number }).code === 404) return undefined;
      throw error;
    }
  }

  async function admit(a: AdmissionAttributes): Promise<void> {
    const isNamespace = isNamespaceRequest(a);
    if (a.operation === "DELETE" && isNamespace && immortalNamespaces.has(a.name)) {
      throw forbidden(groupResource(a.kind), a.name, "this namespace may not be deleted");
    }
    if (isNamespace) {
      if (a.operation === "DELETE") rememberDeleted(a.name);
      return;
    }
    const namespace = a.namespace;
    if (namespace === undefined || namespace === "" || a.operation === "DELETE") return;
    if (accessReviews.has(`${a.kind.group}/${a.kind.resource.plural}`)) return;

    let found = await read(namespace, false);
    if (found === undefined || (forceLiveLookup(namespace) && !isTerminating(found))) {
      found = await read(namespace, true);
      if (found === undefined) throw notFound(groupResource(namespaceKind), namespace);
    }
    if (a.operation === "CREATE" && isTerminating(found)) throw terminating(a, namespace);
  }

  // kube runs the plugin as mutating admission: before validation, and for a delete before the object is read.
  return { name: "NamespaceLifecycle", mutate: admit };
}
