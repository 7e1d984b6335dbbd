// kubernetes_feature_enabled: one sample per feature gate, 1 when on, labelled with the gate's stage as kube
// labels it (a GA gate's stage is empty).
import type { MetricRegistry } from "./metric-registry.js";

export interface FeatureGateState {
  name: string;
  stage: string;
  enabled: boolean;
}

export function registerFeatureGates(metrics: MetricRegistry, gates: readonly FeatureGateState[]): void {
  const gauge = metrics.gauge({
    name: "kubernetes_feature_enabled",
    help: "This metric records the data about the stage and enablement of a k8s feature.",
    labelNames: ["name", "stage"],
    stabilityLevel: "BETA",
  });
  for (const gate of gates)
    gauge.set({ name: gate.name, stage: gate.stage === "GA" ? "" : gate.stage }, gate.enabled ? 1 : 0);
}
