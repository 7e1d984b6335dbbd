// ServiceAccounts: secret references keep only their name (kube's cleanSecretReferences), and a delete
// answers with the deleted account.
import { asObject, listItems } from "../validation/walk.js";
import type { KubeObject, Strategy } from "./strategy.js";

function cleanSecretReferences(obj: KubeObject): void {
  if (!Array.isArray(obj.secrets)) return;
  obj.secrets = listItems(obj.secrets).map((ref) => {
    const name = asObject(ref)?.name;
    return name === undefined ? {} : { name };
  });
}

export const strategy: Strategy = {
  prepareForCreate: cleanSecretReferences,
  prepareForUpdate(obj: KubeObject, _old: KubeObject, subresource?: string): void {
    if (subresource === undefined) cleanSecretReferences(obj);
  },
  returnDeletedObject: true,
};
