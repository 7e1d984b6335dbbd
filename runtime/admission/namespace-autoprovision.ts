// kube's NamespaceAutoProvision plugin: a create in a namespace that does not exist creates the namespace
// first (not on dry run). It runs before NamespaceLifecycle, which then finds the namespace.
import { namespaces } from "../controllers/core-kinds.js";
import { StatusError } from "../errors/status-error.js";
import type { ResourceApi } from "../resources/resource-api.js";
import { type AdmissionPlugin, isNamespaceRequest } from "./admission.js";
import { admissionForbidden } from "./admission-forbidden.js";
import { namespaceExists } from "./namespace-exists.js";

export function namespaceAutoProvision(api: ResourceApi): AdmissionPlugin {
  return {
    name: "NamespaceAutoProvision",
    async mutate(a) {
      const namespace = a.namespace ?? "";
      if (a.operation !== "CREATE" || a.dryRun || namespace === "" || isNamespaceRequest(a)) return;
      if (await namespaceExists(api, namespace)) return;
      try {
        await api.create({ kind: namespaces }, { apiVersion: "v1", kind: "Namespace", metadata: { name: namespace } });
      } catch (error) {
        if (error instanceof StatusError && error.status.reason === "AlreadyExists") return;
        throw admissionForbidden(a, error instanceof StatusError ? error.message : String(error));
      }
    },
  };
}
