// kube-apiserver's LimitPodHardAntiAffinityTopology admission (off by default): a pod's required
// anti-affinity terms may only use the `kubernetes.io/hostname` topology key.
import { forbidden } from "../../errors/status-error.js";
import { isJsonObject } from "../../object/json-object.js";
import { groupResource } from "../../registry/kinds.js";
import type { AdmissionPlugin } from "../admission.js";
import { podOf, specOf, stringField } from "./pod-write.js";

export const limitPodHardAntiAffinityTopologyPluginName = "LimitPodHardAntiAffinityTopology";

const hostnameLabel = "kubernetes.io/hostname";

export function limitPodHardAntiAffinityTopology(): AdmissionPlugin {
  return {
    name: limitPodHardAntiAffinityTopologyPluginName,
    validate(a) {
      if (a.operation !== "CREATE" && a.operation !== "UPDATE") return;
      const pod = podOf(a);
      if (pod === undefined) return;
      const affinity = specOf(pod).affinity;
      const antiAffinity = isJsonObject(affinity) ? affinity.podAntiAffinity : undefined;
      if (!isJsonObject(antiAffinity)) return;
      const terms = antiAffinity.requiredDuringSchedulingIgnoredDuringExecution;
      for (const term of Array.isArray(terms) ? terms.filter(isJsonObject) : []) {
        const key = stringField(term, "topologyKey");
        if (key === hostnameLabel) continue;
        // kube names the pod by its own name here, not the request's.
        const name = isJsonObject(pod.metadata) ? stringField(pod.metadata, "name") : "";
        throw forbidden(
          groupResource(a.kind),
          name,
          `affinity.PodAntiAffinity.RequiredDuringScheduling has TopologyKey ${key} but only key ${hostnameLabel} is allowed`,
        );
      }
    },
  };
}
