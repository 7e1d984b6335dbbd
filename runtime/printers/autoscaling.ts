// Horizontal pod autoscalers (autoscaling/v1 and v2) and pod disruption budgets.
import type { JsonObject } from "../object/json-object.js";
import { at, int, objects, str } from "./fields.js";
import type { PrinterCells } from "./printer-cell.js";

const unknown = "<unknown>";

/** A quantity as stored (its canonical form); Go prints a missing one as "0". */
const quantity = (value: unknown) => str(value) || "0";

function percent(value: unknown): string | undefined {
  return typeof value === "number" ? `${Math.trunc(value)}%` : undefined;
}

/** One metric of formatHPAMetrics: `current/target`, resource metrics prefixed by their name. */
function metric(spec: JsonObject, status: JsonObject | undefined): string {
  const type = str(spec.type);
  const source = (o: JsonObject | undefined, field: string) =>
    o === undefined ? undefined : (o[field] as JsonObject | undefined);
  switch (type) {
    case "External":
    case "Object": {
      const key = type === "External" ? "external" : "object";
      const target = (source(spec, key)?.target ?? {}) as JsonObject;
      const current = source(status, key)?.current as JsonObject | undefined;
      if (target.averageValue !== undefined) {
        const now = current?.averageValue !== undefined ? quantity(current.averageValue) : unknown;
        return `${now}/${quantity(target.averageValue)} (avg)`;
      }
      const now = current !== undefined ? quantity(current.value) : unknown;
      return `${now}/${quantity(target.value)}`;
    }
    case "Pods": {
      const target = (source(spec, "pods")?.target ?? {}) as JsonObject;
      const current = source(status, "pods")?.current as JsonObject | undefined;
      return `${current !== undefined ? quantity(current.averageValue) : unknown}/${quantity(target.averageValue)}`;
    }
    case "Resource":
    case "ContainerResource": {
      const key = type === "Resource" ? "resource" : "containerResource";
      const s = source(spec, key) ?? {};
      const target = (s.target ?? {}) as JsonObject;
      const current = source(status, key)?.current as JsonObject | undefined;
      if (target.averageValue !== undefined) {
        const now = current !== undefined ? quantity(current.averageValue) : unknown;
        return `${str(s.name)}: ${now}/${quantity(target.averageValue)}`;
      }
      const now = percent(current?.averageUtilization) ?? unknown;
      return `${str(s.name)}: ${now}/${percent(target.averageUtilization) ?? "<auto>"}`;
    }
    default:
      return "<unknown type>";
  }
}

function formatMetrics(specs: JsonObject[], statuses: JsonObject[]): string {
  if (specs.length === 0) return "<none>";
  const all = specs.map((spec, i) => metric(spec, statuses[i]));
  const max = 2;
  if (all.length <= max) return all.join(", ");
  return `${all.slice(0, max).join(", ")} + ${all.length - max} more...`;
}

function annotatedMetrics(hpa: JsonObject, annotation: string): JsonObject[] {
  const text = at(hpa, "metadata", "annotations", annotation);
  if (typeof text !== "string") return [];
  try {
    return objects(JSON.parse(text));
  } catch {
    return [];
  }
}

/**
 * autoscaling/v1 carries one CPU utilization target and the other metrics in annotations; kube prints the
 * metrics of the stored object, the CPU target first as autoscaling/v2 lists it when v1 wrote it.
 */
function v1Targets(hpa: JsonObject): string {
  const target = at(hpa, "spec", "targetCPUUtilizationPercentage");
  const others = annotatedMetrics(hpa, "autoscaling.alpha.kubernetes.io/metrics");
  const cpu: JsonObject[] =
    typeof target === "number"
      ? [{ type: "Resource", resource: { name: "cpu", target: { type: "Utilization", averageUtilization: target } } }]
      : [];
  const current = at(hpa, "status", "currentCPUUtilizationPercentage");
  const statuses = annotatedMetrics(hpa, "autoscaling.alpha.kubernetes.io/current-metrics");
  const cpuStatus: JsonObject[] =
    typeof current === "number"
      ? [{ type: "Resource", resource: { name: "cpu", current: { averageUtilization: current } } }]
      : [];
  return formatMetrics([...cpu, ...others], statuses.length > 0 ? statuses : cpuStatus);
}

function intOrString(value: unknown): string {
  return typeof value === "number" ? String(Math.trunc(value)) : typeof value === "string" ? value : "N/A";
}

export const cells = {
  reference: (hpa) =>
    `${str(at(hpa, "spec", "scaleTargetRef", "kind"))}/${str(at(hpa, "spec", "scaleTargetRef", "name"))}`,
  targets: (hpa) => formatMetrics(objects(at(hpa, "spec", "metrics")), objects(at(hpa, "status", "currentMetrics"))),
  v1Targets,
  minPods: (hpa) => {
    const min = at(hpa, "spec", "minReplicas");
    return typeof min === "number" ? String(Math.trunc(min)) : "<unset>";
  },
  maxPods: (hpa) => int(at(hpa, "spec", "maxReplicas")),
  replicas: (hpa) => int(at(hpa, "status", "currentReplicas")),
  minAvailable: (pdb) => intOrString(at(pdb, "spec", "minAvailable")),
  maxUnavailable: (pdb) => intOrString(at(pdb, "spec", "maxUnavailable")),
  allowedDisruptions: (pdb) => int(at(pdb, "status", "disruptionsAllowed")),
} satisfies PrinterCells;
