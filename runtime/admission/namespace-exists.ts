// kube's NamespaceExists plugin: a namespaced write (create, update, delete) in a namespace that does not
// exist answers the namespace's 404. NamespaceLifecycle does the same for creates and more; this one is the
// older, narrower check some clusters still name.
import { namespaces } from "../controllers/core-kinds.js";
import { notFound, StatusError } from "../errors/status-error.js";
import { groupResource } from "../registry/kinds.js";
import type { ResourceApi } from "../resources/resource-api.js";
import { type AdmissionPlugin, isNamespaceRequest } from "./admission.js";

/** Whether the namespace exists: the watch cache first, then a consistent read before answering no. */
export async function namespaceExists(api: ResourceApi, name: string): Promise<boolean> {
  for (const options of [{ resourceVersion: "0" }, {}]) {
    try {
      await api.get({ kind: namespaces, name }, options);
      return true;
    } catch (error) {
      if (!(error instanceof StatusError && error.code === 404)) throw error;
    }
  }
  return false;
}

export function namespaceExistsPlugin(api: ResourceApi): AdmissionPlugin {
  return {
    name: "NamespaceExists",
    async validate(a) {
      const namespace = a.namespace ?? "";
      if (namespace === "" || isNamespaceRequest(a) || a.operation === "CONNECT") return;
      if (!(await namespaceExists(api, namespace))) throw notFound(groupResource(namespaces), namespace);
    },
  };
}
