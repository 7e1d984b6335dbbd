// The core/v1 kinds the in-server controllers manage by name, looked up once in the generated registry.
import { kinds } from "../../generated/registry.js";
import { byGroupVersionResource, type ServedKind } from "../registry/lookup.js";

function coreKind(resource: string): ServedKind {
  const kind = byGroupVersionResource(kinds, "", "v1", resource);
  if (kind === undefined) throw new Error(`the registry has no v1 ${resource}`);
  return kind;
}

export const namespaces = coreKind("namespaces");
export const serviceAccounts = coreKind("serviceaccounts");
export const configMaps = coreKind("configmaps");
export const secrets = coreKind("secrets");
