// The group, version and kind of a custom resource as apimachinery reads them from apiVersion and kind,
// and the texts Go prints for them (GroupVersionKind.String(), GroupVersion.String()), which conversion
// errors quote.
import type { KubeObject } from "../../object/kube-object.js";

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** schema.ParseGroupVersion; an apiVersion with more than one slash reads as empty, as GroupVersionKind() does. */
export function objectKind(obj: KubeObject): GroupVersionKind {
  const apiVersion = text(obj.apiVersion);
  const kind = text(obj.kind);
  const parts = apiVersion.split("/");
  if (parts.length === 1) return { group: "", version: apiVersion, kind };
  if (parts.length === 2) return { group: parts[0] ?? "", version: parts[1] ?? "", kind };
  return { group: "", version: "", kind };
}

/** GroupVersion.String(): `stable.example.com/v1`, or the version alone in the core group. */
export function groupVersionText(gv: { group: string; version: string }): string {
  return gv.group === "" ? gv.version : `${gv.group}/${gv.version}`;
}

/** GroupVersionKind.String(): `stable.example.com/v1, Kind=CronTab` (the slash stays for the core group). */
export function groupVersionKindText(gvk: GroupVersionKind): string {
  return `${gvk.group}/${gvk.version}, Kind=${gvk.kind}`;
}

/** kube's nopConverter: a copy of `obj` in another version, nothing else changed (key order kept). */
export function withApiVersion(obj: KubeObject, apiVersion: string): KubeObject {
  return { ...structuredClone(obj), apiVersion };
}
