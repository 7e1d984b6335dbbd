// Hand-written conversions of kapi's sample group (docs/new-api-group.md): v1alpha1 keeps a widget's color and
// size directly in its spec, v1 groups them under spec.appearance. The generator converts everything else field by
// field and calls these two functions for the one definition whose shape changed.
import { isJsonObject, type JsonObject } from "../json-values.js";

/** Fields both versions of WidgetSpec share, in the order the target writes them around the moved ones. */
const leading = ["replicas", "maxReplicas"];
const trailing = ["ports", "tags", "settings"];
const moved = ["color", "size"];

function copyDefined(src: JsonObject, out: JsonObject, names: string[]): void {
  for (const name of names) if (src[name] !== undefined) out[name] = structuredClone(src[name]);
}

export function convert_v1alpha1_WidgetSpec_To_v1_WidgetSpec(src: JsonObject): JsonObject {
  const out: JsonObject = {};
  copyDefined(src, out, leading);
  const appearance: JsonObject = {};
  copyDefined(src, appearance, moved);
  // An absent appearance stays absent so that v1's defaults, not empty values, fill it in.
  if (Object.keys(appearance).length > 0) out.appearance = appearance;
  copyDefined(src, out, trailing);
  return out;
}

export function convert_v1_WidgetSpec_To_v1alpha1_WidgetSpec(src: JsonObject): JsonObject {
  const out: JsonObject = {};
  copyDefined(src, out, leading);
  if (isJsonObject(src.appearance)) copyDefined(src.appearance, out, moved);
  copyDefined(src, out, trailing);
  return out;
}
