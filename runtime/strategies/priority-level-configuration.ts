// PriorityLevelConfigurations (flowcontrol.apiserver.k8s.io/v1): the shares' pointer defaults kube writes even
// when zero. A Limited level lends nothing by default (its 30 shares come from the schema); an Exempt level
// has neither shares nor lending.
import type { KubeObject } from "../object/kube-object.js";
import type { Strategy } from "../registry/strategy.js";
import { asObject } from "../validation/walk.js";

export const strategy: Strategy = {
  default(obj: KubeObject): void {
    const spec = asObject(obj.spec);
    const limited = asObject(spec?.limited);
    if (limited !== undefined) limited.lendablePercent ??= 0;
    const exempt = asObject(spec?.exempt);
    if (exempt !== undefined) {
      exempt.nominalConcurrencyShares ??= 0;
      exempt.lendablePercent ??= 0;
    }
  },
};
