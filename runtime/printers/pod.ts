// Pods and pod templates: READY, STATUS, RESTARTS and the wide columns as kubectl shows them.
import type { JsonObject } from "../object/json-object.js";
import { at, containerCells, formatLabels, int, list, obj, objects, str } from "./fields.js";
import type { CellContext, PrinterCells } from "./printer-cell.js";
import { humanDuration, timeOf, ZERO_TIME } from "./time.js";

interface PodSummary {
  ready: string;
  status: string;
  restarts: number;
  lastRestart: number;
}

function isRestartable(container: JsonObject | undefined): boolean {
  return container !== undefined && container.restartPolicy === "Always";
}

function lastTerminated(status: JsonObject): number {
  const finished = at(status, "lastState", "terminated", "finishedAt");
  return at(status, "lastState", "terminated") === undefined ? ZERO_TIME : timeOf(finished);
}

function conditionTrue(pod: JsonObject, type: string): boolean {
  return objects(at(pod, "status", "conditions")).some((c) => c.type === type && c.status === "True");
}

function terminatedReason(terminated: JsonObject, prefix: string): string {
  const reason = str(terminated.reason);
  if (reason !== "") return `${prefix}${reason}`;
  const signal = int(terminated.signal);
  return signal !== 0 ? `${prefix}Signal:${signal}` : `${prefix}ExitCode:${int(terminated.exitCode)}`;
}

// printPod's walk over init and app container statuses, once per pod and clock.
function summarize(pod: JsonObject): PodSummary {
  const spec = obj(pod.spec);
  const status = obj(pod.status);
  const initSpecs = objects(spec.initContainers);
  const initByName = new Map(initSpecs.map((c) => [str(c.name), c]));
  const total = list(spec.containers).length + initSpecs.filter(isRestartable).length;
  let ready = 0;
  let restarts = 0;
  let sidecarRestarts = 0;
  let lastRestart = ZERO_TIME;
  let lastSidecarRestart = ZERO_TIME;
  const phase = str(status.phase);
  let reason = str(status.reason) !== "" ? str(status.reason) : phase;
  for (const c of objects(status.conditions)) {
    if (c.type === "PodScheduled" && c.reason === "SchedulingGated") reason = "SchedulingGated";
  }
  let initializing = false;
  const initStatuses = objects(status.initContainerStatuses);
  for (const [i, c] of initStatuses.entries()) {
    const count = int(c.restartCount);
    restarts += count;
    lastRestart = Math.max(lastRestart, lastTerminated(c));
    const sidecar = isRestartable(initByName.get(str(c.name)));
    if (sidecar) {
      sidecarRestarts += count;
      lastSidecarRestart = Math.max(lastSidecarRestart, lastTerminated(c));
    }
    const terminated = at(c, "state", "terminated");
    const waitingReason = str(at(c, "state", "waiting", "reason"));
    if (terminated !== undefined && int(obj(terminated).exitCode) === 0) continue;
    if (sidecar && c.started === true) {
      if (c.ready === true) ready++;
      continue;
    }
    if (terminated !== undefined) reason = terminatedReason(obj(terminated), "Init:");
    else if (waitingReason !== "" && waitingReason !== "PodInitializing") reason = `Init:${waitingReason}`;
    else reason = `Init:${i}/${initSpecs.length}`;
    initializing = true;
    break;
  }
  const initialized = objects(status.conditions).find((c) => c.type === "Initialized")?.status === "True";
  if (!initializing || initialized) {
    restarts = sidecarRestarts;
    lastRestart = lastSidecarRestart;
    let hasRunning = false;
    let errorReason = "";
    const statuses = objects(status.containerStatuses);
    for (let i = statuses.length - 1; i >= 0; i--) {
      const c = statuses[i] ?? {};
      restarts += int(c.restartCount);
      lastRestart = Math.max(lastRestart, lastTerminated(c));
      const waitingReason = str(at(c, "state", "waiting", "reason"));
      const terminated = at(c, "state", "terminated");
      if (at(c, "state", "waiting") !== undefined && waitingReason !== "") {
        reason = waitingReason;
      } else if (terminated !== undefined) {
        reason = terminatedReason(obj(terminated), "");
        if (int(obj(terminated).exitCode) !== 0) errorReason = reason;
      } else if (c.ready === true && at(c, "state", "running") !== undefined) {
        hasRunning = true;
        ready++;
      }
    }
    if (reason === "Completed") {
      if (hasRunning && conditionTrue(pod, "Ready")) reason = "Running";
      else if (errorReason !== "") reason = errorReason;
      else if (hasRunning) reason = "NotReady";
    }
  }
  const deleting = at(pod, "metadata", "deletionTimestamp") !== undefined;
  if (deleting && status.reason === "NodeLost") reason = "Unknown";
  else if (deleting && phase !== "Succeeded" && phase !== "Failed") reason = "Terminating";
  return { ready: `${ready}/${total}`, status: reason, restarts, lastRestart };
}

const summaries = new WeakMap<JsonObject, PodSummary>();

function summary(pod: JsonObject): PodSummary {
  let s = summaries.get(pod);
  if (s === undefined) {
    s = summarize(pod);
    summaries.set(pod, s);
  }
  return s;
}

function restarts(pod: JsonObject, { now }: CellContext): string {
  const s = summary(pod);
  if (s.restarts === 0 || s.lastRestart === ZERO_TIME) return String(s.restarts);
  return `${s.restarts} (${humanDuration(now - s.lastRestart)} ago)`;
}

function orNone(value: string): string {
  return value === "" ? "<none>" : value;
}

function readinessGates(pod: JsonObject): string {
  const gates = objects(at(pod, "spec", "readinessGates"));
  if (gates.length === 0) return "<none>";
  const conditions = objects(at(pod, "status", "conditions"));
  const passing = gates.filter((g) => conditions.find((c) => c.type === g.conditionType)?.status === "True").length;
  return `${passing}/${gates.length}`;
}

export const cells = {
  ready: (pod) => summary(pod).ready,
  status: (pod) => summary(pod).status,
  restarts,
  ip: (pod) => orNone(str(obj(list(at(pod, "status", "podIPs"))[0]).ip)),
  node: (pod) => orNone(str(at(pod, "spec", "nodeName"))),
  nominatedNode: (pod) => orNone(str(at(pod, "status", "nominatedNodeName"))),
  readinessGates,
  templateContainers: (t) => containerCells(at(t, "template", "spec", "containers")).names,
  templateImages: (t) => containerCells(at(t, "template", "spec", "containers")).images,
  templateLabels: (t) => formatLabels(at(t, "template", "metadata", "labels")),
} satisfies PrinterCells;
