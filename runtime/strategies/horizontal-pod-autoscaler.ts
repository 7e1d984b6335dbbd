// HorizontalPodAutoscalers (autoscaling/v1 and v2): no generation, and one that names no metric scales on CPU
// at 80% utilization (SetDefaults_HorizontalPodAutoscaler of v2, which v1 shows as its CPU target).
import type { KubeObject } from "../object/kube-object.js";
import type { Strategy } from "../registry/strategy.js";
import { asObject, listItems } from "../validation/walk.js";

const defaultUtilization = 80;

export const strategy: Strategy = {
  tracksGeneration: false,
  default(obj: KubeObject): void {
    const spec = asObject(obj.spec);
    if (spec === undefined) return;
    if (obj.apiVersion === "autoscaling/v1") {
      spec.targetCPUUtilizationPercentage ??= defaultUtilization;
      return;
    }
    if (listItems(spec.metrics).length > 0) return;
    spec.metrics = [
      {
        type: "Resource",
        resource: { name: "cpu", target: { type: "Utilization", averageUtilization: defaultUtilization } },
      },
    ];
  },
};
