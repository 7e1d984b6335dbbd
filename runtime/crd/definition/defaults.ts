// SetDefaults for apiextensions.k8s.io/v1 CustomResourceDefinitions beyond what the generated
// defaulters apply: singular and listKind from the kind, conversion strategy None, webhook service
// port 443, and the storage version in status.storedVersions.
import { asObject } from "../../validation/walk.js";
import { recordStorageVersion } from "./stored-versions.js";

export function defaultDefinition(obj: Record<string, unknown>): void {
  const spec = asObject(obj.spec);
  if (spec === undefined) return;
  const names = asObject(spec.names);
  if (names !== undefined && typeof names.kind === "string") {
    if (typeof names.singular !== "string" || names.singular === "") names.singular = names.kind.toLowerCase();
    if ((typeof names.listKind !== "string" || names.listKind === "") && names.kind !== "") {
      names.listKind = `${names.kind}List`;
    }
  }
  spec.conversion ??= { strategy: "None" };
  const service = asObject(asObject(asObject(asObject(spec.conversion)?.webhook)?.clientConfig)?.service);
  if (service !== undefined) service.port ??= 443;
  const status = asObject(obj.status);
  if (status === undefined || !Array.isArray(status.storedVersions) || status.storedVersions.length === 0) {
    recordStorageVersion(obj);
  }
  // Fields Go always writes and kube's status validation does not ask for: the accepted plural and kind
  // before the names are accepted, a condition's type, status and lastTransitionTime ("", "" and null).
  const accepted = asObject(status?.acceptedNames);
  if (accepted !== undefined) {
    accepted.plural ??= "";
    accepted.kind ??= "";
  }
  if (status !== undefined && Array.isArray(status.conditions)) {
    for (const item of status.conditions) {
      const condition = asObject(item);
      if (condition === undefined) continue;
      condition.type ??= "";
      condition.status ??= "";
      condition.lastTransitionTime ??= null;
    }
  }
}
