// A metav1.LabelSelector object (matchLabels + matchExpressions) validated as ValidateLabelSelector does
// and turned into a matcher as LabelSelectorAsSelector does.
import type { FieldError } from "../errors/field-error.js";
import { forbidden, invalid, required } from "../errors/field-error.js";
import { child, index } from "../errors/field-path.js";
import { formatFieldErrors } from "../errors/format-field-error.js";
import { goQuote } from "../errors/go-format.js";
import { compareGoStrings } from "./go-strings.js";
import {
  type LabelOperator,
  type LabelRequirement,
  LabelSelector,
  nothingLabels,
  requirementErrors,
} from "./label-selector.js";
import { labelValueErrors, qualifiedNameErrors } from "./label-validation.js";
import type { ParseResult } from "./parse-result.js";

export interface LabelSelectorRequirementObject {
  key: string;
  operator: string;
  values?: string[];
}

export interface LabelSelectorObject {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirementObject[];
}

const operators: Readonly<Record<string, LabelOperator>> = {
  In: "in",
  NotIn: "notin",
  Exists: "exists",
  DoesNotExist: "!",
};

/** Go walks matchLabels in random order; sorted keys make the error list reproducible. */
/**
 * The map's entries in Go's key order. A JSON null value reads as "", as Go decodes null into a string (a body
 * may carry `matchLabels: {k: null}`, which kube stores as `k: ""`); other non-strings were refused by decoding.
 */
function sortedEntries(m: Record<string, string | null> | undefined): [string, string][] {
  return Object.entries(m ?? {})
    .map(([k, v]): [string, string] => [k, v ?? ""])
    .sort(([a], [b]) => compareGoStrings(a, b));
}

function labelNameErrors(name: string, path: string): FieldError[] {
  return qualifiedNameErrors(name).map((msg) => invalid(path, name, msg));
}

/**
 * ValidateLabelSelector under `path` (e.g. `spec.selector`). `allowInvalidLabelValue` is kube's
 * AllowInvalidLabelValueInSelector, kept for updates of objects stored before values were checked.
 */
export function validateLabelSelector(
  ps: LabelSelectorObject | null | undefined,
  path: string,
  allowInvalidLabelValue = false,
): FieldError[] {
  if (ps === null || ps === undefined) return [];
  const errs: FieldError[] = [];
  const labelsPath = child(path, "matchLabels");
  for (const [k, v] of sortedEntries(ps.matchLabels)) {
    errs.push(...labelNameErrors(k, labelsPath));
    for (const msg of labelValueErrors(v)) errs.push(invalid(labelsPath, v, msg));
  }
  (ps.matchExpressions ?? []).forEach((expr, i) => {
    const exprPath = index(child(path, "matchExpressions"), i);
    const valuesPath = child(exprPath, "values");
    const values = expr.values ?? [];
    switch (expr.operator) {
      case "In":
      case "NotIn":
        if (values.length === 0) {
          errs.push(required(valuesPath, "must be specified when `operator` is 'In' or 'NotIn'"));
        }
        break;
      case "Exists":
      case "DoesNotExist":
        if (values.length > 0) {
          errs.push(forbidden(valuesPath, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
        }
        break;
      default:
        errs.push(invalid(child(exprPath, "operator"), expr.operator, "not a valid selector operator"));
    }
    errs.push(...labelNameErrors(expr.key, child(exprPath, "key")));
    if (!allowInvalidLabelValue) {
      values.forEach((v, j) => {
        for (const msg of labelValueErrors(v)) errs.push(invalid(index(valuesPath, j), v, msg));
      });
    }
  });
  return errs;
}

/**
 * LabelSelectorAsSelector: a missing selector selects nothing, an empty one everything. The error is
 * the first requirement's, worded as kube words it.
 */
export function labelSelectorFromObject(ps: LabelSelectorObject | null | undefined): ParseResult<LabelSelector> {
  if (ps === null || ps === undefined) return { ok: true, selector: nothingLabels };
  const reqs: LabelRequirement[] = [];
  const add = (req: LabelRequirement): string | undefined => {
    const errs = requirementErrors(req);
    if (errs.length > 0) return formatFieldErrors(errs);
    reqs.push(req);
    return undefined;
  };
  for (const [key, value] of sortedEntries(ps.matchLabels)) {
    const error = add({ key, operator: "=", values: [value] });
    if (error !== undefined) return { ok: false, error };
  }
  for (const expr of ps.matchExpressions ?? []) {
    const operator = operators[expr.operator];
    if (operator === undefined) {
      return { ok: false, error: `${goQuote(expr.operator)} is not a valid label selector operator` };
    }
    const error = add({ key: expr.key, operator, values: [...(expr.values ?? [])] });
    if (error !== undefined) return { ok: false, error };
  }
  return { ok: true, selector: new LabelSelector(reqs) };
}
