// A printer cell: one computed cell of a built-in kind's table row, as kube's Go table printers compute it
// (pkg/printers/internalversion). Schemas name cells as `<module>.<cell>` (`pod.ready`); generated/printers.ts
// maps those names to the functions each module's `cells` exports.
import type { JsonObject } from "../object/json-object.js";

export interface CellContext {
  /** The clock for ages and durations, in milliseconds since the epoch. */
  now: number;
}

export type PrinterCell = (obj: JsonObject, context: CellContext) => string | number | boolean;

/** What a module of cells exports: its cells by name. */
export type PrinterCells = Readonly<Record<string, PrinterCell>>;
