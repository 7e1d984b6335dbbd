// Events, core/v1 and events.k8s.io/v1: kube prints both from the internal core Event, so each cell reads the
// fields of the version it is given (events.k8s.io's regarding, note, deprecated* and reporting fields).
import type { JsonObject } from "../object/json-object.js";
import { at, int, obj, str } from "./fields.js";
import type { PrinterCells } from "./printer-cell.js";
import { humanDuration, timeOf, ZERO_TIME } from "./time.js";

/** Where each core Event field lives in events.k8s.io/v1. */
interface EventFields {
  firstTimestamp: string;
  lastTimestamp: string;
  count: string;
  involvedObject: string;
  message: string;
  sourceComponent: (e: JsonObject) => unknown;
  sourceHost: (e: JsonObject) => unknown;
}

const core: EventFields = {
  firstTimestamp: "firstTimestamp",
  lastTimestamp: "lastTimestamp",
  count: "count",
  involvedObject: "involvedObject",
  message: "message",
  sourceComponent: (e) => at(e, "source", "component"),
  sourceHost: (e) => at(e, "source", "host"),
};

const events: EventFields = {
  firstTimestamp: "deprecatedFirstTimestamp",
  lastTimestamp: "deprecatedLastTimestamp",
  count: "deprecatedCount",
  involvedObject: "regarding",
  message: "note",
  sourceComponent: (e) => at(e, "deprecatedSource", "component"),
  sourceHost: (e) => at(e, "deprecatedSource", "host"),
};

const age = (time: number, now: number) => (time === ZERO_TIME ? "<unknown>" : humanDuration(now - time));

function firstSeen(f: EventFields, e: JsonObject, now: number): string {
  const first = timeOf(e[f.firstTimestamp]);
  return age(first === ZERO_TIME ? timeOf(e.eventTime) : first, now);
}

function lastSeen(f: EventFields, e: JsonObject, now: number): string {
  if (e.series !== undefined && e.series !== null) return age(timeOf(at(e, "series", "lastObservedTime")), now);
  const last = timeOf(e[f.lastTimestamp]);
  return last === ZERO_TIME ? firstSeen(f, e, now) : age(last, now);
}

function count(f: EventFields, e: JsonObject): number {
  if (e.series !== undefined && e.series !== null) return int(at(e, "series", "count"));
  const n = int(e[f.count]);
  return n === 0 ? 1 : n;
}

function object(f: EventFields, e: JsonObject): string {
  const ref = obj(e[f.involvedObject]);
  const kind = str(ref.kind).toLowerCase();
  return str(ref.name) === "" ? kind : `${kind}/${str(ref.name)}`;
}

function source(f: EventFields, e: JsonObject): string {
  const component = str(f.sourceComponent(e)) || str(e.reportingController) || str(e.reportingComponent);
  const instance = str(f.sourceHost(e)) || str(e.reportingInstance);
  return instance === "" ? component : `${component}, ${instance}`;
}

function cellsFor(f: EventFields) {
  const cells = {
    lastSeen: (e, { now }) => lastSeen(f, e, now),
    type: (e) => str(e.type),
    reason: (e) => str(e.reason),
    object: (e) => object(f, e),
    subobject: (e) => str(at(e, f.involvedObject, "fieldPath")),
    source: (e) => source(f, e),
    message: (e) => str(e[f.message]).trim(),
    firstSeen: (e, { now }) => firstSeen(f, e, now),
    count: (e) => count(f, e),
  } satisfies PrinterCells;
  return cells;
}

const coreCells = cellsFor(core);
const eventsCells = cellsFor(events);

export const cells = {
  lastSeen: coreCells.lastSeen,
  type: coreCells.type,
  reason: coreCells.reason,
  object: coreCells.object,
  subobject: coreCells.subobject,
  source: coreCells.source,
  message: coreCells.message,
  firstSeen: coreCells.firstSeen,
  count: coreCells.count,
  v1LastSeen: eventsCells.lastSeen,
  v1Object: eventsCells.object,
  v1Subobject: eventsCells.subobject,
  v1Source: eventsCells.source,
  v1Message: eventsCells.message,
  v1FirstSeen: eventsCells.firstSeen,
  v1Count: eventsCells.count,
} satisfies PrinterCells;
