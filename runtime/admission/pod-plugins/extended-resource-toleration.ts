// kube-apiserver's ExtendedResourceToleration admission (off by default): a pod requesting extended
// resources (`example.com/gpu`) tolerates the NoSchedule taints named after them, so nodes offering such
// resources can be tainted to keep other pods away.
import { isJsonObject } from "../../object/json-object.js";
import { qualifiedNameErrors } from "../../selection/label-validation.js";
import type { AdmissionPlugin } from "../admission.js";
import { podOf, specOf } from "./pod-write.js";
import { addOrUpdateToleration } from "./tolerations.js";

export const extendedResourceTolerationPluginName = "ExtendedResourceToleration";

/** helper.IsExtendedResourceName: outside kubernetes.io, not a quota `requests.` name, and quota-nameable. */
export function isExtendedResourceName(name: string): boolean {
  const native = !name.includes("/") || name.includes("kubernetes.io/");
  if (native || name.startsWith("requests.")) return false;
  return qualifiedNameErrors(`requests.${name}`).length === 0;
}

export function extendedResourceToleration(): AdmissionPlugin {
  return {
    name: extendedResourceTolerationPluginName,
    mutate(a) {
      if (a.operation !== "CREATE" && a.operation !== "UPDATE") return;
      const pod = podOf(a);
      if (pod === undefined) return;
      const spec = specOf(pod);
      const names = new Set<string>();
      for (const field of ["containers", "initContainers"]) {
        const list = spec[field];
        for (const container of Array.isArray(list) ? list.filter(isJsonObject) : []) {
          const resources = isJsonObject(container.resources) ? container.resources : {};
          const requests = isJsonObject(resources.requests) ? resources.requests : {};
          for (const name of Object.keys(requests)) if (isExtendedResourceName(name)) names.add(name);
        }
      }
      // kube adds them in sorted order.
      for (const name of [...names].sort()) {
        addOrUpdateToleration(spec, { key: name, operator: "Exists", effect: "NoSchedule" });
      }
    },
  };
}
