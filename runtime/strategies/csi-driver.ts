// CSIDrivers (storage.k8s.io/v1): SetDefaults_CSIDriver sets these pointer fields to false when unset, so
// kube writes them; the schema's other defaults (attachRequired, fsGroupPolicy, lifecycle modes) do the rest.
import type { KubeObject } from "../object/kube-object.js";
import type { Strategy } from "../registry/strategy.js";
import { asObject } from "../validation/walk.js";

const falseByDefault = ["podInfoOnMount", "requiresRepublish", "seLinuxMount", "storageCapacity"];

export const strategy: Strategy = {
  default(obj: KubeObject): void {
    const spec = asObject(obj.spec);
    if (spec === undefined) return;
    for (const field of falseByDefault) spec[field] ??= false;
  },
};
