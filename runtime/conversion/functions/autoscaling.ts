// Hand-written autoscaling conversions: v1 HorizontalPodAutoscaler only knows a CPU utilization target, so, like
// kube-apiserver, the v2 data v1 cannot express travels in annotations of the v1 object and comes back from them.
// kube stores internal Go structs there; kapi stores the v2 JSON shape, which kube's case-insensitive decoding reads.
import { isJsonObject, type JsonObject } from "../json-values.js";

const metricsAnnotation = "autoscaling.alpha.kubernetes.io/metrics";
const currentMetricsAnnotation = "autoscaling.alpha.kubernetes.io/current-metrics";
const conditionsAnnotation = "autoscaling.alpha.kubernetes.io/conditions";
const behaviorAnnotation = "autoscaling.alpha.kubernetes.io/behavior";
const roundTripAnnotations = [metricsAnnotation, currentMetricsAnnotation, conditionsAnnotation, behaviorAnnotation];

/** v1 had an implicit CPU target applied by the controller; v2 makes it explicit. */
const defaultCPUUtilization = 80;

function object(value: unknown): JsonObject {
  return isJsonObject(value) ? value : {};
}

function copyDefined(src: JsonObject, out: JsonObject, names: string[]): void {
  for (const name of names) if (src[name] !== undefined) out[name] = structuredClone(src[name]);
}

/** Metadata without the round-trip annotations (an emptied annotations map is dropped). */
function metadataWithout(metadata: unknown): JsonObject {
  const out = structuredClone(object(metadata));
  if (!isJsonObject(out.annotations)) return out;
  for (const name of roundTripAnnotations) delete out.annotations[name];
  if (Object.keys(out.annotations).length === 0) delete out.annotations;
  return out;
}

function annotation(metadata: unknown, name: string): unknown {
  const value = object(object(metadata).annotations)[name];
  if (typeof value !== "string") return undefined;
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

function annotatedList(metadata: unknown, name: string): unknown[] {
  const value = annotation(metadata, name);
  return Array.isArray(value) ? value : [];
}

function isCPUResource(metric: unknown): metric is JsonObject & { resource: JsonObject } {
  return (
    isJsonObject(metric) &&
    metric.type === "Resource" &&
    isJsonObject(metric.resource) &&
    metric.resource.name === "cpu"
  );
}

function cpuTargetUtilization(metric: unknown): number | undefined {
  if (!isCPUResource(metric)) return undefined;
  const target = object(metric.resource.target);
  return target.type === "Utilization" && typeof target.averageUtilization === "number"
    ? target.averageUtilization
    : undefined;
}

function cpuTarget(averageUtilization: number): JsonObject {
  return { type: "Resource", resource: { name: "cpu", target: { type: "Utilization", averageUtilization } } };
}

export function convert_v1_HorizontalPodAutoscaler_To_v2_HorizontalPodAutoscaler(src: JsonObject): JsonObject {
  const out: JsonObject = { apiVersion: "autoscaling/v2" };
  copyDefined(src, out, ["kind"]);
  if (src.metadata !== undefined) out.metadata = metadataWithout(src.metadata);
  if (src.spec !== undefined) {
    const spec = object(src.spec);
    const outSpec: JsonObject = {};
    copyDefined(spec, outSpec, ["scaleTargetRef", "minReplicas", "maxReplicas"]);
    const metrics =
      typeof spec.targetCPUUtilizationPercentage === "number" ? [cpuTarget(spec.targetCPUUtilizationPercentage)] : [];
    metrics.push(...annotatedList(src.metadata, metricsAnnotation).filter(isJsonObject));
    outSpec.metrics = metrics.length > 0 ? metrics : [cpuTarget(defaultCPUUtilization)];
    const behavior = annotation(src.metadata, behaviorAnnotation);
    if (isJsonObject(behavior)) outSpec.behavior = behavior;
    out.spec = outSpec;
  }
  if (src.status !== undefined) {
    const status = object(src.status);
    const outStatus: JsonObject = {};
    copyDefined(status, outStatus, ["observedGeneration", "lastScaleTime", "currentReplicas", "desiredReplicas"]);
    const annotated = annotatedList(src.metadata, currentMetricsAnnotation);
    if (annotated.length > 0) outStatus.currentMetrics = annotated;
    else if (typeof status.currentCPUUtilizationPercentage === "number") {
      outStatus.currentMetrics = [
        {
          type: "Resource",
          resource: { name: "cpu", current: { averageUtilization: status.currentCPUUtilizationPercentage } },
        },
      ];
    }
    const conditions = annotatedList(src.metadata, conditionsAnnotation);
    if (conditions.length > 0) outStatus.conditions = conditions;
    out.status = outStatus;
  }
  return out;
}

export function convert_v2_HorizontalPodAutoscaler_To_v1_HorizontalPodAutoscaler(src: JsonObject): JsonObject {
  const out: JsonObject = { apiVersion: "autoscaling/v1" };
  copyDefined(src, out, ["kind"]);
  const spec = object(src.spec);
  const status = object(src.status);
  const metrics = Array.isArray(spec.metrics) ? spec.metrics : [];
  const currentMetrics = Array.isArray(status.currentMetrics) ? status.currentMetrics : [];
  const conditions = Array.isArray(status.conditions) ? status.conditions : [];
  const otherMetrics = metrics.filter((m) => cpuTargetUtilization(m) === undefined);

  const annotations: JsonObject = {};
  if (otherMetrics.length > 0) annotations[metricsAnnotation] = JSON.stringify(otherMetrics);
  // Saved even when it is only CPU, so the raw value survives next to the percentage.
  if (currentMetrics.length > 0) annotations[currentMetricsAnnotation] = JSON.stringify(currentMetrics);
  if (conditions.length > 0) annotations[conditionsAnnotation] = JSON.stringify(conditions);
  if (isJsonObject(spec.behavior)) annotations[behaviorAnnotation] = JSON.stringify(spec.behavior);
  if (src.metadata !== undefined || Object.keys(annotations).length > 0) {
    const metadata = metadataWithout(src.metadata);
    if (Object.keys(annotations).length > 0) metadata.annotations = { ...object(metadata.annotations), ...annotations };
    out.metadata = metadata;
  }

  if (src.spec !== undefined) {
    const outSpec: JsonObject = {};
    copyDefined(spec, outSpec, ["maxReplicas", "minReplicas", "scaleTargetRef"]);
    const cpu = metrics.map(cpuTargetUtilization).find((u) => u !== undefined);
    if (cpu !== undefined) outSpec.targetCPUUtilizationPercentage = cpu;
    out.spec = outSpec;
  }
  if (src.status !== undefined) {
    const outStatus: JsonObject = {};
    copyDefined(status, outStatus, ["observedGeneration", "lastScaleTime", "currentReplicas", "desiredReplicas"]);
    for (const metric of currentMetrics) {
      const utilization = isCPUResource(metric) ? object(metric.resource.current).averageUtilization : undefined;
      if (typeof utilization === "number") outStatus.currentCPUUtilizationPercentage = utilization;
    }
    out.status = outStatus;
  }
  return out;
}
