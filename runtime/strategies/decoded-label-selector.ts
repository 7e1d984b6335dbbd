// A LabelSelector as decoded from a request, with values of the wrong type left out (the schema
// validators report those), so the selector helpers can read it safely.
import type { LabelSelectorObject, LabelSelectorRequirementObject } from "../selection/label-selector-object.js";
import { asObject, listItems } from "../validation/walk.js";

export function labelSelectorObject(value: unknown): LabelSelectorObject | undefined {
  const obj = asObject(value);
  if (obj === undefined) return undefined;
  const matchLabels = Object.fromEntries(
    Object.entries(asObject(obj.matchLabels) ?? {}).filter((e): e is [string, string] => typeof e[1] === "string"),
  );
  const matchExpressions: LabelSelectorRequirementObject[] = listItems(obj.matchExpressions).map((item) => {
    const expr = asObject(item) ?? {};
    return {
      key: typeof expr.key === "string" ? expr.key : "",
      operator: typeof expr.operator === "string" ? expr.operator : "",
      values: listItems(expr.values).filter((v): v is string => typeof v === "string"),
    };
  });
  return { matchLabels, matchExpressions };
}
