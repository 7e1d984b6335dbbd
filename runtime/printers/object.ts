// Cells every kind's row has: the name and the age.
import { obj, str } from "./fields.js";
import type { PrinterCells } from "./printer-cell.js";
import { since } from "./time.js";

export const cells = {
  name: (o) => str(obj(o.metadata).name),
  age: (o, { now }) => since(obj(o.metadata).creationTimestamp, now),
} satisfies PrinterCells;
