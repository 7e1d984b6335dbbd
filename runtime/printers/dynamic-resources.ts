// Dynamic resource allocation: resource claims, slices, and pool status requests.
import type { JsonObject } from "../object/json-object.js";
import { at, list, str } from "./fields.js";
import type { PrinterCells } from "./printer-cell.js";

function claimState(claim: JsonObject): string {
  const deleted = at(claim, "metadata", "deletionTimestamp") !== undefined;
  const states = deleted ? ["deleted"] : [];
  if (at(claim, "status", "allocation") === undefined) {
    if (!deleted) states.push("pending");
  } else {
    states.push("allocated");
    if (list(at(claim, "status", "reservedFor")).length > 0) states.push("reserved");
  }
  return states.join(",");
}

export const cells = {
  claimState,
  sliceNode: (s) => str(at(s, "spec", "nodeName")),
  sliceDriver: (s) => str(at(s, "spec", "driver")),
  slicePool: (s) => str(at(s, "spec", "pool", "name")),
} satisfies PrinterCells;
