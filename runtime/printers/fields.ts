// Reading the loosely typed objects the printers see: missing and mistyped fields read as Go's zero values.
import { isJsonObject, type JsonObject } from "../object/json-object.js";
import { type LabelSelectorObject, labelSelectorFromObject } from "../selection/label-selector-object.js";

export function obj(value: unknown): JsonObject {
  return isJsonObject(value) ? value : {};
}

export function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function objects(value: unknown): JsonObject[] {
  return list(value).map(obj);
}

export function str(value: unknown): string {
  return typeof value === "string" ? value : "";
}

export function int(value: unknown): number {
  return typeof value === "number" ? Math.trunc(value) : 0;
}

/** Follows a path of field names; a missing step gives undefined. */
export function at(from: unknown, ...path: string[]): unknown {
  let value: unknown = from;
  for (const key of path) {
    if (!isJsonObject(value)) return undefined;
    value = value[key];
  }
  return value;
}

/** labels.FormatLabels: `k=v` pairs sorted by key and comma-joined, `<none>` when empty. */
export function formatLabels(value: unknown): string {
  const pairs = Object.entries(obj(value))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${str(v)}`);
  return pairs.length === 0 ? "<none>" : pairs.join(",");
}

/** metav1.FormatLabelSelector: the selector's string form, `<none>` when empty, `<error>` when invalid. */
export function formatLabelSelector(value: unknown): string {
  const result = labelSelectorFromObject(isJsonObject(value) ? (value as LabelSelectorObject) : undefined);
  if (!result.ok) return "<error>";
  const text = result.selector.toString();
  return text === "" ? "<none>" : text;
}

/** The printers' layoutContainerCells: container names and images, comma-joined. */
export function containerCells(containers: unknown): { names: string; images: string } {
  const list = objects(containers);
  return { names: list.map((c) => str(c.name)).join(","), images: list.map((c) => str(c.image)).join(",") };
}
