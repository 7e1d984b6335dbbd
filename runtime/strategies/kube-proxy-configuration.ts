// KubeProxyConfiguration (kubeproxy.config.k8s.io): kube's SetDefaults_KubeProxyConfiguration completes a
// partly written client block field by field (qps 5, burst 10), which a schema default cannot.
import type { KubeObject } from "../object/kube-object.js";
import type { Strategy } from "../registry/strategy.js";
import { block, defaultClientConnection } from "./component-config-defaults.js";

export const strategy: Strategy = {
  default(obj: KubeObject): void {
    defaultClientConnection(block(obj, "clientConnection"), 5, 10);
  },
};
