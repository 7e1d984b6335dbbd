// kube prints a configuration back from its Go types, so every metav1.Duration comes out as Go's
// Duration.String() prints it (`300s` read is `5m0s` written). The fields holding durations are the
// "duration" nodes of the generated field table.
import { fieldTable } from "../../generated/fields.js";
import type { FieldNode } from "../codecs/field-table.js";
import { formatGoDuration, goDurationError, parseGoDuration } from "../object/go-duration.js";

function normalize(value: unknown, node: FieldNode): unknown {
  if (node === "duration") {
    return typeof value === "string" && goDurationError(value) === undefined
      ? formatGoDuration(parseGoDuration(value))
      : value;
  }
  if (typeof node === "string" || value === null || typeof value !== "object") return value;
  if (typeof node === "number") {
    const fields = fieldTable.definitions[node]?.fields ?? {};
    const object = value as Record<string, unknown>;
    for (const [name, inner] of Object.entries(fields)) {
      if (name in object) object[name] = normalize(object[name], inner);
    }
    return object;
  }
  if ("list" in node) return Array.isArray(value) ? value.map((item) => normalize(item, node.list)) : value;
  const map = value as Record<string, unknown>;
  for (const key of Object.keys(map)) map[key] = normalize(map[key], node.map);
  return map;
}

/** Rewrites, in place, every duration of a configuration object of definition `n` as Go prints it. */
export function normalizeDurations(object: Record<string, unknown>, n: number): void {
  normalize(object, n);
}
