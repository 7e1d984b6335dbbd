// kube's controllers create content only in a namespace whose phase is Active.
import { isTerminating } from "../admission/namespace-lifecycle.js";
import type { ResourceApi } from "../resources/resource-api.js";
import { statusCode } from "./api-errors.js";
import { namespaces } from "./core-kinds.js";

export async function activeNamespace(api: ResourceApi, name: string): Promise<boolean> {
  try {
    return !isTerminating((await api.get({ kind: namespaces, name })).object);
  } catch (error) {
    if (statusCode(error) === 404) return false;
    throw error;
  }
}
