// The core/v1 kinds the in-server controllers manage by name, looked up once in the generated registry.
import { kinds } from "../../generated/registry.js";
import { kindReference } from "../registry/kinds.js";
import { byGroupVersionResource } from "../registry/lookup.js";
import type { ServedKind } from "../registry/served-kind.js";

function coreKind(resource: string): ServedKind {
  const kind = byGroupVersionResource(kinds, "", "v1", resource);
  if (kind === undefined) throw new Error(`the registry has no v1 ${resource}`);
  return kindReference(kind);
}

export const namespaces = coreKind("namespaces");
export const serviceAccounts = coreKind("serviceaccounts");
export const configMaps = coreKind("configmaps");
export const secrets = coreKind("secrets");
