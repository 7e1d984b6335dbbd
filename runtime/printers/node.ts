// Nodes: STATUS from the Ready condition and schedulability, ROLES from role labels, and the wide node info.
import type { JsonObject } from "../object/json-object.js";
import { at, obj, objects, str } from "./fields.js";
import type { PrinterCells } from "./printer-cell.js";

const rolePrefix = "node-role.kubernetes.io/";

function status(node: JsonObject): string {
  const conditions = objects(at(node, "status", "conditions"));
  // The last condition of a type wins, as the printer's map by type keeps it.
  const ready = conditions.filter((c) => c.type === "Ready").at(-1);
  const parts = ready === undefined ? ["Unknown"] : [ready.status === "True" ? "Ready" : "NotReady"];
  if (at(node, "spec", "unschedulable") === true) parts.push("SchedulingDisabled");
  return parts.join(",");
}

function roles(node: JsonObject): string {
  const found = new Set<string>();
  for (const [key, value] of Object.entries(obj(at(node, "metadata", "labels")))) {
    if (key.startsWith(rolePrefix) && key.length > rolePrefix.length) found.add(key.slice(rolePrefix.length));
    else if (key === "kubernetes.io/role" && str(value) !== "") found.add(str(value));
  }
  const sorted = [...found].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return sorted.length === 0 ? "<none>" : sorted.join(",");
}

function address(node: JsonObject, type: string): string {
  const found = objects(at(node, "status", "addresses")).find((a) => a.type === type);
  return found === undefined ? "<none>" : str(found.address);
}

const info = (node: JsonObject, field: string) => str(at(node, "status", "nodeInfo", field));

function kernelVersion(node: JsonObject): string {
  const kernel = info(node, "kernelVersion") || "<unknown>";
  const arch = info(node, "architecture");
  return arch === "" ? kernel : `${kernel} (${arch})`;
}

export const cells = {
  status,
  roles,
  version: (node) => info(node, "kubeletVersion"),
  internalIp: (node) => address(node, "InternalIP"),
  externalIp: (node) => address(node, "ExternalIP"),
  osImage: (node) => info(node, "osImage") || "<unknown>",
  kernelVersion,
  containerRuntime: (node) => info(node, "containerRuntimeVersion") || "<unknown>",
} satisfies PrinterCells;
