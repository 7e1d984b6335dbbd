// The core/v1 kinds the in-server controllers manage by name, looked up once in the generated registry.
import { builtinKind } from "../registry/kinds.js";

export const namespaces = builtinKind("", "v1", "namespaces");
export const serviceAccounts = builtinKind("", "v1", "serviceaccounts");
export const configMaps = builtinKind("", "v1", "configmaps");
export const secrets = builtinKind("", "v1", "secrets");
