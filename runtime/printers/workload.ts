// Controllers of pods: deployments, replica sets, replication controllers, stateful sets, daemon sets, jobs,
// cron jobs and controller revisions.
import type { JsonObject } from "../object/json-object.js";
import { at, containerCells, formatLabelSelector, formatLabels, int, list, objects, str } from "./fields.js";
import type { PrinterCells } from "./printer-cell.js";
import { humanDuration, since, timeOf } from "./time.js";

const podContainers = (o: JsonObject) => containerCells(at(o, "spec", "template", "spec", "containers"));
const jobContainers = (o: JsonObject) =>
  containerCells(at(o, "spec", "jobTemplate", "spec", "template", "spec", "containers"));

function conditionTrue(o: JsonObject, type: string): boolean {
  const found = objects(at(o, "status", "conditions")).find((c) => c.type === type);
  return found?.status === "True";
}

function jobStatus(job: JsonObject): string {
  if (conditionTrue(job, "Complete")) return "Complete";
  if (conditionTrue(job, "Failed")) return "Failed";
  if (at(job, "metadata", "deletionTimestamp") !== undefined) return "Terminating";
  if (conditionTrue(job, "Suspended")) return "Suspended";
  if (conditionTrue(job, "FailureTarget")) return "FailureTarget";
  if (conditionTrue(job, "SuccessCriteriaMet")) return "SuccessCriteriaMet";
  return "Running";
}

function jobCompletions(job: JsonObject): string {
  const succeeded = int(at(job, "status", "succeeded"));
  const completions = at(job, "spec", "completions");
  if (typeof completions === "number") return `${succeeded}/${completions}`;
  const parallelism = int(at(job, "spec", "parallelism"));
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

function jobDuration(job: JsonObject, now: number): string {
  const start = at(job, "status", "startTime");
  if (start === undefined) return "";
  const completion = at(job, "status", "completionTime");
  const end = completion === undefined ? now : timeOf(completion);
  return humanDuration(end - timeOf(start));
}

/** The selector as labels.Selector.String() prints it: empty when it selects everything. */
function selectorString(o: JsonObject): string {
  const text = formatLabelSelector(at(o, "spec", "selector"));
  return text === "<none>" ? "" : text === "<error>" ? "<invalid>" : text;
}

export const cells = {
  desiredReplicas: (o) => int(at(o, "spec", "replicas")),
  currentReplicas: (o) => int(at(o, "status", "replicas")),
  readyReplicas: (o) => int(at(o, "status", "readyReplicas")),
  updatedReplicas: (o) => int(at(o, "status", "updatedReplicas")),
  availableReplicas: (o) => int(at(o, "status", "availableReplicas")),
  readyOfDesired: (o) => `${int(at(o, "status", "readyReplicas"))}/${int(at(o, "spec", "replicas"))}`,
  containers: (o) => podContainers(o).names,
  images: (o) => podContainers(o).images,
  selector: (o) => formatLabelSelector(at(o, "spec", "selector")),
  selectorLabels: (o) => formatLabels(at(o, "spec", "selector")),
  deploymentSelector: selectorString,
  desiredScheduled: (o) => int(at(o, "status", "desiredNumberScheduled")),
  currentScheduled: (o) => int(at(o, "status", "currentNumberScheduled")),
  numberReady: (o) => int(at(o, "status", "numberReady")),
  updatedScheduled: (o) => int(at(o, "status", "updatedNumberScheduled")),
  numberAvailable: (o) => int(at(o, "status", "numberAvailable")),
  nodeSelector: (o) => formatLabels(at(o, "spec", "template", "spec", "nodeSelector")),
  jobStatus,
  jobCompletions,
  jobDuration: (o, { now }) => jobDuration(o, now),
  schedule: (o) => str(at(o, "spec", "schedule")),
  timeZone: (o) => str(at(o, "spec", "timeZone")) || "<none>",
  suspend: (o) => {
    const v = at(o, "spec", "suspend");
    return typeof v === "boolean" ? (v ? "True" : "False") : "<unset>";
  },
  active: (o) => list(at(o, "status", "active")).length,
  lastSchedule: (o, { now }) => {
    const v = at(o, "status", "lastScheduleTime");
    return v === undefined ? "<none>" : since(v, now);
  },
  jobContainers: (o) => jobContainers(o).names,
  jobImages: (o) => jobContainers(o).images,
  jobSelector: (o) => formatLabelSelector(at(o, "spec", "jobTemplate", "spec", "selector")),
} satisfies PrinterCells;
