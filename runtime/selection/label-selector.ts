// A parsed label selector: requirements ANDed together, matched and printed as apimachinery's
// labels.Selector does, since watch cache keys and continue tokens embed the printed form.
import type { FieldError } from "../errors/field-error.js";
import { invalid, notSupported } from "../errors/field-error.js";
import { child, index, key } from "../errors/field-path.js";
import { compareGoStrings } from "./go-strings.js";
import { labelValueErrors, qualifiedNameErrors } from "./label-validation.js";

/** selection.Operator values, spelled as Go spells them. */
export type LabelOperator = "in" | "notin" | "=" | "==" | "!=" | "gt" | "lt" | "exists" | "!";

/** The binary operators in the order kube lists them in "expected: …" messages. */
export const binaryOperators: readonly LabelOperator[] = ["in", "notin", "=", "==", "!=", "gt", "lt"];
const validOperators: readonly LabelOperator[] = [...binaryOperators, "exists", "!"];

export type Labels = Readonly<Record<string, string>>;

export interface LabelRequirement {
  readonly key: string;
  readonly operator: LabelOperator;
  readonly values: readonly string[];
}

const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;

/** strconv.ParseInt(s, 10, 64): an optional sign then decimal digits, within int64. */
export function parseInt64(s: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  const n = BigInt(s);
  return n < int64Min || n > int64Max ? undefined : n;
}

/**
 * labels.NewRequirement's checks. `path` is the field path the caller validates under; the string
 * parser passes "" and gets `values[0][key]`, as kube's nil path prints.
 */
export function requirementErrors(req: LabelRequirement, path = ""): FieldError[] {
  const errs: FieldError[] = [];
  const keyErrs = qualifiedNameErrors(req.key);
  if (keyErrs.length > 0) errs.push(invalid(child(path, "key"), req.key, keyErrs.join("; ")));
  const valuesPath = child(path, "values");
  const vals = req.values;
  switch (req.operator) {
    case "in":
    case "notin":
      if (vals.length === 0)
        errs.push(invalid(valuesPath, vals, "for 'in', 'notin' operators, values set can't be empty"));
      break;
    case "=":
    case "==":
    case "!=":
      if (vals.length !== 1)
        errs.push(invalid(valuesPath, vals, "exact-match compatibility requires one single value"));
      break;
    case "exists":
    case "!":
      if (vals.length !== 0)
        errs.push(invalid(valuesPath, vals, "values set must be empty for exists and does not exist"));
      break;
    case "gt":
    case "lt":
      if (vals.length !== 1) {
        errs.push(invalid(valuesPath, vals, "for 'Gt', 'Lt' operators, exactly one value is required"));
      }
      vals.forEach((v, i) => {
        if (parseInt64(v) === undefined) {
          errs.push(invalid(index(valuesPath, i), v, "for 'Gt', 'Lt' operators, the value must be an integer"));
        }
      });
      break;
    default:
      errs.push(notSupported(child(path, "operator"), req.operator, validOperators));
  }
  vals.forEach((v, i) => {
    const msgs = labelValueErrors(v);
    if (msgs.length > 0) errs.push(invalid(key(index(valuesPath, i), req.key), v, msgs.join("; ")));
  });
  return errs;
}

function has(labels: Labels, k: string): boolean {
  return Object.hasOwn(labels, k);
}

function requirementMatches(r: LabelRequirement, labels: Labels): boolean {
  switch (r.operator) {
    case "in":
    case "=":
    case "==":
      return has(labels, r.key) && r.values.includes(labels[r.key] ?? "");
    case "notin":
    case "!=":
      return !has(labels, r.key) || !r.values.includes(labels[r.key] ?? "");
    case "exists":
      return has(labels, r.key);
    case "!":
      return !has(labels, r.key);
    case "gt":
    case "lt": {
      if (!has(labels, r.key) || r.values.length !== 1) return false;
      const actual = parseInt64(labels[r.key] ?? "");
      const bound = parseInt64(r.values[0] ?? "");
      if (actual === undefined || bound === undefined) return false;
      return r.operator === "gt" ? actual > bound : actual < bound;
    }
  }
}

const operatorText: Record<LabelOperator, string> = {
  "=": "=",
  "==": "==",
  "!=": "!=",
  in: " in ",
  notin: " notin ",
  gt: ">",
  lt: "<",
  exists: "",
  "!": "",
};

/** Requirement.String(): values sorted, `in`/`notin` sets parenthesised. */
export function requirementString(r: LabelRequirement): string {
  if (r.operator === "exists") return r.key;
  if (r.operator === "!") return `!${r.key}`;
  const values = [...r.values].sort(compareGoStrings).join(",");
  const set = r.operator === "in" || r.operator === "notin";
  return `${r.key}${operatorText[r.operator]}${set ? `(${values})` : values}`;
}

export class LabelSelector {
  /** Requirements in key order (a stable sort, as kube's insertion sort is for short lists). */
  readonly requirements: readonly LabelRequirement[];

  /** `selectable` false is labels.Nothing(): the selector of a nil metav1.LabelSelector. */
  constructor(
    requirements: readonly LabelRequirement[],
    readonly selectable = true,
  ) {
    this.requirements = [...requirements].sort((a, b) => compareGoStrings(a.key, b.key));
  }

  matches(labels: Labels | undefined): boolean {
    if (!this.selectable) return false;
    const ls = labels ?? {};
    for (const r of this.requirements) if (!requirementMatches(r, ls)) return false;
    return true;
  }

  /** Empty(): matches everything. Nothing() is not empty. */
  isEmpty(): boolean {
    return this.selectable && this.requirements.length === 0;
  }

  toString(): string {
    return this.requirements.map(requirementString).join(",");
  }

  /** RequiresExactMatch: the one value the first requirement on `label` pins, if it does. */
  requiresExactMatch(label: string): string | undefined {
    const r = this.requirements.find((q) => q.key === label);
    if (r === undefined || r.values.length !== 1) return undefined;
    return r.operator === "=" || r.operator === "==" || r.operator === "in" ? r.values[0] : undefined;
  }
}

export const everythingLabels = new LabelSelector([]);
export const nothingLabels = new LabelSelector([], false);
