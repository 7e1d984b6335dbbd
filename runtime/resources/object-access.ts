// Tolerant reads of the metadata every object carries; the write path has validated shape by the time
// anything depends on these values.
import type { KubeObject } from "../object/kube-object.js";

export type ObjectMeta = Record<string, unknown>;

/** The object's metadata, created empty when missing so callers can set fields on it. */
export function objectMeta(obj: KubeObject): ObjectMeta {
  const meta = obj.metadata;
  if (typeof meta === "object" && meta !== null && !Array.isArray(meta)) return meta as ObjectMeta;
  const created: ObjectMeta = {};
  obj.metadata = created;
  return created;
}

export function metaString(obj: KubeObject, field: string): string | undefined {
  const meta = obj.metadata;
  if (typeof meta !== "object" || meta === null) return undefined;
  const value = (meta as ObjectMeta)[field];
  return typeof value === "string" ? value : undefined;
}

export function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

export function finalizersOf(obj: KubeObject): string[] {
  return stringList((obj.metadata as ObjectMeta | undefined)?.finalizers);
}

export function labelsOf(obj: KubeObject): Record<string, string> | undefined {
  const labels = (obj.metadata as ObjectMeta | undefined)?.labels;
  return typeof labels === "object" && labels !== null ? (labels as Record<string, string>) : undefined;
}
