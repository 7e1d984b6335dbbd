// apimachinery's labels.Set helpers the node-selector plugins use: ConvertSelectorToLabelsMap (a
// `k=v,k2=v2` string, keys and values validated), Conflicts and Merge.

import { invalid } from "../../errors/field-error.js";
import { formatFieldError } from "../../errors/format-field-error.js";
import { labelValueErrors, qualifiedNameErrors } from "../../selection/label-validation.js";

export type LabelSet = Record<string, string>;

/** Go's fmt of a []string: `[a b c]`. */
function goStrings(parts: readonly string[]): string {
  return `[${parts.join(" ")}]`;
}

/**
 * labels.ConvertSelectorToLabelsMap; throws kube's text. kube validates with no field path, which Go prints
 * as `<nil>` for a key and `[key]` for a value.
 */
export function selectorToLabels(selector: string): LabelSet {
  const set: LabelSet = {};
  if (selector === "") return set;
  for (const term of selector.split(",")) {
    const parts = term.split("=");
    if (parts.length !== 2) throw new Error(`invalid selector: ${goStrings(parts)}`);
    const key = (parts[0] as string).trim();
    const keyErrors = qualifiedNameErrors(key);
    if (keyErrors.length > 0) throw new Error(formatFieldError(invalid("<nil>", key, keyErrors.join("; "))));
    const value = (parts[1] as string).trim();
    const valueErrors = labelValueErrors(value);
    if (valueErrors.length > 0) {
      throw new Error(formatFieldError(invalid(`[${key}]`, value, valueErrors.join("; "))));
    }
    set[key] = value;
  }
  return set;
}

/** labels.Conflicts: a key both sets have with different values. */
export function labelsConflict(a: LabelSet, b: LabelSet): boolean {
  return Object.entries(a).some(([key, value]) => Object.hasOwn(b, key) && b[key] !== value);
}

/** labels.Merge: `b` wins. */
export function mergeLabels(a: LabelSet, b: LabelSet): LabelSet {
  return { ...a, ...b };
}
