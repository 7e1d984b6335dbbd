// EndpointSlices (discovery.k8s.io/v1): kube starts their generation at 1, and SetDefaults_EndpointPort gives
// every port a name, the empty one when none is set (a pointer, so the empty name is written).
import type { KubeObject } from "../object/kube-object.js";
import type { Strategy } from "../registry/strategy.js";
import { asObject, listItems } from "../validation/walk.js";

export const strategy: Strategy = {
  tracksGeneration: true,
  default(obj: KubeObject): void {
    for (const item of listItems(obj.ports)) {
      const port = asObject(item);
      if (port !== undefined) port.name ??= "";
    }
  },
};
