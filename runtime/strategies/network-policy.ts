// NetworkPolicies (networking.k8s.io/v1): kube starts their generation at 1, and SetDefaults_NetworkPolicy
// fills policyTypes when unset: Ingress always, Egress too when egress rules are given.
import type { KubeObject } from "../object/kube-object.js";
import type { Strategy } from "../registry/strategy.js";
import { asObject, listItems } from "../validation/walk.js";

export const strategy: Strategy = {
  tracksGeneration: true,
  default(obj: KubeObject): void {
    const spec = asObject(obj.spec);
    if (spec === undefined || listItems(spec.policyTypes).length > 0) return;
    spec.policyTypes = listItems(spec.egress).length > 0 ? ["Ingress", "Egress"] : ["Ingress"];
  },
};
