// Config maps, secrets and namespaces.
import { at, obj, str } from "./fields.js";
import type { PrinterCells } from "./printer-cell.js";

const keys = (value: unknown) => Object.keys(obj(value)).length;

export const cells = {
  configMapData: (cm) => keys(cm.data) + keys(cm.binaryData),
  secretType: (s) => str(s.type),
  secretData: (s) => keys(s.data),
  namespacePhase: (ns) => str(at(ns, "status", "phase")),
} satisfies PrinterCells;
