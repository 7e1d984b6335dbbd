// KubeControllerManagerConfiguration and CloudControllerManagerConfiguration: both managers' defaulters
// complete a partly written `Generic.ClientConnection` field by field (qps 20, burst 30), which a schema
// default cannot. The lock's name and namespace come from their flags, not from the file.
import type { KubeObject } from "../object/kube-object.js";
import type { Strategy } from "../registry/strategy.js";
import { block, defaultClientConnection } from "./component-config-defaults.js";

export const strategy: Strategy = {
  default(obj: KubeObject): void {
    defaultClientConnection(block(block(obj, "Generic"), "ClientConnection"), 20, 30);
  },
};
