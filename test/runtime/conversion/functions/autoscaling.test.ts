import { describe, expect, it } from "vitest";
import { conversionTable } from "../../../../generated/conversions.js";
import { convert } from "../../../../runtime/conversion/convert.js";
import type { JsonObject } from "../../../../runtime/conversion/json-values.js";

const scaleTargetRef = { apiVersion: "apps/v1", kind: "Deployment", name: "web" };

const v1: JsonObject = {
  apiVersion: "autoscaling/v1",
  kind: "HorizontalPodAutoscaler",
  metadata: { name: "web", namespace: "default", annotations: { team: "a" } },
  spec: { scaleTargetRef, minReplicas: 2, maxReplicas: 10, targetCPUUtilizationPercentage: 60 },
  status: { observedGeneration: 3, currentReplicas: 4, desiredReplicas: 5, currentCPUUtilizationPercentage: 70 },
};

const v2: JsonObject = {
  apiVersion: "autoscaling/v2",
  kind: "HorizontalPodAutoscaler",
  metadata: { name: "web", namespace: "default" },
  spec: {
    scaleTargetRef,
    minReplicas: 2,
    maxReplicas: 10,
    metrics: [
      { type: "Resource", resource: { name: "cpu", target: { type: "Utilization", averageUtilization: 60 } } },
      { type: "Pods", pods: { metric: { name: "qps" }, target: { type: "AverageValue", averageValue: "10" } } },
    ],
    behavior: { scaleDown: { stabilizationWindowSeconds: 300 } },
  },
  status: {
    currentReplicas: 4,
    desiredReplicas: 5,
    currentMetrics: [{ type: "Resource", resource: { name: "cpu", current: { averageUtilization: 70 } } }],
    conditions: [{ type: "AbleToScale", status: "True" }],
  },
};

describe("autoscaling HorizontalPodAutoscaler conversions", () => {
  it("turns the v1 CPU target into a v2 Resource metric", () => {
    expect(convert(conversionTable, v1, "v2")).toEqual({
      apiVersion: "autoscaling/v2",
      kind: "HorizontalPodAutoscaler",
      metadata: { name: "web", namespace: "default", annotations: { team: "a" } },
      spec: {
        scaleTargetRef,
        minReplicas: 2,
        maxReplicas: 10,
        metrics: [
          { type: "Resource", resource: { name: "cpu", target: { type: "Utilization", averageUtilization: 60 } } },
        ],
      },
      status: {
        observedGeneration: 3,
        currentReplicas: 4,
        desiredReplicas: 5,
        currentMetrics: [{ type: "Resource", resource: { name: "cpu", current: { averageUtilization: 70 } } }],
      },
    });
  });

  it("applies the implicit 80% CPU target of v1", () => {
    const { targetCPUUtilizationPercentage: _, ...spec } = v1.spec as JsonObject;
    const out = convert(conversionTable, { ...v1, spec }, "v2");
    expect((out.spec as JsonObject).metrics).toEqual([
      { type: "Resource", resource: { name: "cpu", target: { type: "Utilization", averageUtilization: 80 } } },
    ]);
  });

  it("round-trips v1 → v2 → v1", () => {
    const back = convert(conversionTable, convert(conversionTable, v1, "v2"), "v1");
    expect(back).toEqual({
      ...v1,
      metadata: {
        ...(v1.metadata as JsonObject),
        annotations: {
          team: "a",
          "autoscaling.alpha.kubernetes.io/current-metrics":
            '[{"type":"Resource","resource":{"name":"cpu","current":{"averageUtilization":70}}}]',
        },
      },
    });
  });

  it("keeps v2-only data in v1 annotations and restores it", () => {
    const down = convert(conversionTable, v2, "v1");
    expect(down.spec).toEqual({ maxReplicas: 10, minReplicas: 2, scaleTargetRef, targetCPUUtilizationPercentage: 60 });
    expect(down.status).toEqual({ currentReplicas: 4, desiredReplicas: 5, currentCPUUtilizationPercentage: 70 });
    expect(Object.keys((down.metadata as JsonObject).annotations as JsonObject).sort()).toEqual([
      "autoscaling.alpha.kubernetes.io/behavior",
      "autoscaling.alpha.kubernetes.io/conditions",
      "autoscaling.alpha.kubernetes.io/current-metrics",
      "autoscaling.alpha.kubernetes.io/metrics",
    ]);
    expect(convert(conversionTable, down, "v2")).toEqual(v2);
  });

  it("does not mutate its input", () => {
    const before = structuredClone(v2);
    const out = convert(conversionTable, v2, "v1");
    (out.metadata as JsonObject).name = "changed";
    expect(v2).toEqual(before);
  });
});
