// An authorization webhook's matchConditions (kube's authorization CEL matcher): CEL expressions over
// `request`, the v1 SubjectAccessReviewSpec as kube declares it, each of which must be a bool. They are
// compiled once; at request time a false condition skips the webhook, all true call it, and errors with
// no false one are reported together for the failure policy to decide.

import { perCallCostLimit } from "../../admission/policy/compile-policy.js";
import type { CheckedAst } from "../../cel/common/ast.js";
import {
  type CelType,
  DynType,
  type FieldDecl,
  formatType,
  listType,
  mapType,
  objectType,
  StringType,
} from "../../cel/common/cel-types.js";
import type { Program } from "../../cel/common/evaluation.js";
import { CelIssues } from "../../cel/common/issues.js";
import { jsonToCel } from "../../cel/common/json-to-cel.js";
import { CelError } from "../../cel/common/values.js";
import type { CelEnv } from "../../cel/env.js";
import { kubernetesBaseEnv } from "../../cel/rules/base-environment.js";
import { duplicate, type FieldError, invalid, required, tooMany } from "../../errors/field-error.js";
import { child, index } from "../../errors/field-path.js";
import type { SubjectAccessReviewSpec } from "./review-request.js";

/** kube's limit on a webhook's matchConditions. */
export const maxMatchConditions = 64;

function object(name: string, fields: Record<string, CelType>): CelType {
  return objectType(name, new Map<string, FieldDecl>(Object.entries(fields).map(([k, type]) => [k, { type }])));
}

const selectorRequirement = object("kubernetes.SelectorRequirement", {
  key: StringType,
  operator: StringType,
  values: listType(StringType),
});

const selector = (name: string) =>
  object(name, { rawSelector: StringType, requirements: listType(selectorRequirement) });

/** kubernetes.SubjectAccessReviewSpec, as kube's authorization CEL compiler declares `request`. */
const requestType = object("kubernetes.SubjectAccessReviewSpec", {
  resourceAttributes: object("kubernetes.ResourceAttributes", {
    namespace: StringType,
    verb: StringType,
    group: StringType,
    version: StringType,
    resource: StringType,
    subresource: StringType,
    name: StringType,
    fieldSelector: selector("kubernetes.FieldSelectorAttributes"),
    labelSelector: selector("kubernetes.LabelSelectorAttributes"),
  }),
  nonResourceAttributes: object("kubernetes.NonResourceAttributes", { path: StringType, verb: StringType }),
  user: StringType,
  groups: listType(StringType),
  extra: mapType(StringType, listType(StringType)),
  uid: StringType,
});

let environment: CelEnv | undefined;

function matchEnv(): CelEnv {
  environment ??= kubernetesBaseEnv().extend([{ name: "request", type: requestType }]);
  return environment;
}

interface CompiledCondition {
  readonly expression: string;
  readonly program: Program;
}

export interface CompiledMatchConditions {
  readonly conditions: readonly CompiledCondition[];
  /** Validation errors, at `<path>.matchConditions[i].expression`. */
  readonly errors: readonly FieldError[];
}

/** kube's compileMatchConditions: at most 64, none empty or repeated, each a bool expression. */
export function compileMatchConditions(
  conditions: readonly { expression?: string }[],
  path = "",
): CompiledMatchConditions {
  const listPath = child(path, "matchConditions");
  if (conditions.length > maxMatchConditions) {
    return { conditions: [], errors: [tooMany(listPath, conditions.length, maxMatchConditions)] };
  }
  const errors: FieldError[] = [];
  const compiled: CompiledCondition[] = [];
  const seen = new Set<string>();
  for (const [i, condition] of conditions.entries()) {
    const fieldPath = child(index(listPath, i), "expression");
    const expression = condition.expression ?? "";
    if (expression.trim() === "") {
      errors.push(required(fieldPath));
      continue;
    }
    if (seen.has(expression)) {
      errors.push(duplicate(fieldPath, expression));
      continue;
    }
    seen.add(expression);
    const checked = matchEnv().compile(expression);
    if (checked instanceof CelIssues) {
      errors.push(invalid(fieldPath, expression, `compilation failed: ${checked.toDisplayString()}`));
      continue;
    }
    const type = (checked as CheckedAst).types.get(checked.expr.id) ?? DynType;
    if (type.kind !== "bool") {
      errors.push(invalid(fieldPath, expression, `must evaluate to bool but got ${formatType(type)}`));
      continue;
    }
    compiled.push({ expression, program: matchEnv().program(checked, { costLimit: perCallCostLimit }) });
  }
  return { conditions: compiled, errors };
}

/** kube's convertObjectToUnstructured: every string field present, even when empty. */
function requestValue(spec: SubjectAccessReviewSpec): Record<string, unknown> {
  const value: Record<string, unknown> = {
    user: spec.user ?? "",
    groups: spec.groups ?? [],
    uid: spec.uid ?? "",
    extra: spec.extra ?? {},
  };
  const r = spec.resourceAttributes;
  if (r !== undefined) {
    const fields = ["namespace", "verb", "group", "version", "resource", "subresource", "name"];
    value.resourceAttributes = {
      ...Object.fromEntries(fields.map((f) => [f, r[f] ?? ""])),
      ...(r.fieldSelector === undefined ? {} : { fieldSelector: r.fieldSelector }),
      ...(r.labelSelector === undefined ? {} : { labelSelector: r.labelSelector }),
    };
  }
  const n = spec.nonResourceAttributes;
  if (n !== undefined) value.nonResourceAttributes = { verb: n.verb ?? "", path: n.path ?? "" };
  return value;
}

export type MatchResult = { matches: boolean; error?: undefined } | { matches?: undefined; error: string };

/** A false condition decides at once; otherwise errors (all of them, as kube aggregates them) or a match. */
export function evaluateMatchConditions(
  conditions: readonly CompiledCondition[],
  spec: SubjectAccessReviewSpec,
): MatchResult {
  if (conditions.length === 0) return { matches: true };
  const request = jsonToCel(requestValue(spec));
  const errors: string[] = [];
  for (const { expression, program } of conditions) {
    const { value } = program.eval((name) => (name === "request" ? request : undefined));
    if (value instanceof CelError) {
      errors.push(`cel evaluation error: expression '${expression}' resulted in error: ${value.message}`);
    } else if (typeof value !== "boolean") {
      errors.push(`cel evaluation error: expression '${expression}' eval result type should be bool`);
    } else if (!value) {
      return { matches: false };
    }
  }
  if (errors.length === 0) return { matches: true };
  return { error: errors.length === 1 ? (errors[0] as string) : `[${errors.join(", ")}]` };
}
