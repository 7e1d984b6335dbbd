// What the pod plugins act on: a write of a core Pod itself (no subresource), as kube's plugins test the
// request's resource (`pods` in the core group) and subresource.
import type { JsonObject } from "../../object/json-object.js";
import { isJsonObject } from "../../object/json-object.js";
import type { AdmissionAttributes } from "../admission.js";

/** The pod being written, or undefined when the request is not a write of a pod itself. */
export function podOf(a: AdmissionAttributes): JsonObject | undefined {
  if (a.kind.group !== "" || a.kind.resource.plural !== "pods") return undefined;
  if (a.subresource !== undefined && a.subresource !== "") return undefined;
  return isJsonObject(a.object) ? a.object : undefined;
}

/** The pod's spec, created empty when the pod has none so plugins can set fields on it. */
export function specOf(pod: JsonObject): JsonObject {
  if (!isJsonObject(pod.spec)) pod.spec = {};
  return pod.spec as JsonObject;
}

/** The containers and init containers of a spec, in kube's order (init containers first). */
export function podContainers(spec: JsonObject): JsonObject[] {
  const list = (value: unknown) => (Array.isArray(value) ? value.filter(isJsonObject) : []);
  return [...list(spec.initContainers), ...list(spec.containers)];
}

/** A string field as Go reads it: absent or not a string is "". */
export function stringField(object: JsonObject, key: string): string {
  const value = object[key];
  return typeof value === "string" ? value : "";
}
