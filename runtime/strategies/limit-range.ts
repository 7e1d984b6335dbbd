// LimitRanges (core/v1): a PUT to a missing name creates one, and a Container limit's defaults follow from its
// bounds (SetDefaults_LimitRangeItem): the default limit from max, the default request from the default limit,
// then from min, resource by resource where unset.
import type { KubeObject } from "../object/kube-object.js";
import type { Strategy } from "../registry/strategy.js";
import { asObject, type JsonObject, listItems } from "../validation/walk.js";

function fillFrom(item: JsonObject, target: string, source: string): void {
  const from = asObject(item[source]);
  if (from === undefined) return;
  const into = { ...asObject(item[target]) };
  for (const [resource, quantity] of Object.entries(from)) into[resource] ??= quantity;
  if (Object.keys(into).length > 0) item[target] = into;
}

export const strategy: Strategy = {
  allowCreateOnUpdate: true,
  default(obj: KubeObject): void {
    for (const entry of listItems(asObject(obj.spec)?.limits)) {
      const item = asObject(entry);
      if (item?.type !== "Container") continue;
      fillFrom(item, "default", "max");
      fillFrom(item, "defaultRequest", "default");
      fillFrom(item, "defaultRequest", "min");
    }
  },
};
