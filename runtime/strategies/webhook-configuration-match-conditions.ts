// matchConditions as kube-apiserver validates them, a webhook's or an admission policy's: at most 64,
// names qualified and unique, each expression compiling to exactly bool in the environment match
// conditions run in (object, oldObject, namespaceObject, request and the authorizer; `params` too in a
// policy with a paramKind; never `variables`).
import { admissionRequestType } from "../admission/policy/request-variable.js";
import { namespaceObjectType } from "../admission/policy/type-checking.js";
import type { CheckedAst } from "../cel/common/ast.js";
import { DynType, formatType } from "../cel/common/cel-types.js";
import { CelIssues } from "../cel/common/issues.js";
import type { CelEnv } from "../cel/env.js";
import { authorizerVariables } from "../cel/library/kubernetes/authorizer-library.js";
import { kubernetesBaseEnv } from "../cel/rules/base-environment.js";
import { duplicate, type FieldError, invalid, required, tooMany } from "../errors/field-error.js";
import { child, index } from "../errors/field-path.js";
import { qualifiedNameErrors } from "../selection/label-validation.js";
import { asObject } from "../validation/walk.js";

const maxMatchConditions = 64;

export interface MatchConditionOptions {
  /** A policy with a paramKind: its match conditions may read `params`. */
  allowParams?: boolean;
}

const environments = new Map<boolean, CelEnv>();

function matchConditionEnvironment(allowParams: boolean): CelEnv {
  let env = environments.get(allowParams);
  if (env === undefined) {
    env = kubernetesBaseEnv().extend([
      { name: "object", type: DynType },
      { name: "oldObject", type: DynType },
      { name: "namespaceObject", type: namespaceObjectType },
      { name: "request", type: admissionRequestType },
      ...(allowParams ? [{ name: "params", type: DynType }] : []),
      ...authorizerVariables,
    ]);
    environments.set(allowParams, env);
  }
  return env;
}

/** Why an expression is not a match condition, worded as kube's CEL compiler words it; undefined if it is one. */
function expressionProblem(expression: string, allowParams: boolean): string | undefined {
  const checked = matchConditionEnvironment(allowParams).compile(expression);
  if (checked instanceof CelIssues) return `compilation failed: ${checked.toDisplayString()}`;
  const type = (checked as CheckedAst).types.get(checked.expr.id) ?? DynType;
  // kube wants exactly bool: a dyn result is refused too.
  return type.kind === "bool" ? undefined : `must evaluate to bool but got ${formatType(type)}`;
}

function validateMatchCondition(condition: Record<string, unknown>, path: string, allowParams: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const expression = (typeof condition.expression === "string" ? condition.expression : "").trim();
  const expressionPath = child(path, "expression");
  if (expression === "") {
    errs.push(required(expressionPath));
  } else {
    const problem = expressionProblem(expression, allowParams);
    if (problem !== undefined) errs.push(invalid(expressionPath, expression, problem));
  }
  const name = typeof condition.name === "string" ? condition.name : "";
  const namePath = child(path, "name");
  if (name === "") errs.push(required(namePath));
  else errs.push(...qualifiedNameErrors(name).map((msg) => invalid(namePath, name, msg)));
  return errs;
}

/** validateMatchConditions at `path` (`webhooks[0].matchConditions`, `spec.matchConditions`). */
export function validateMatchConditions(
  conditions: readonly unknown[],
  path: string,
  options: MatchConditionOptions = {},
): FieldError[] {
  const errs: FieldError[] = [];
  if (conditions.length > maxMatchConditions) errs.push(tooMany(path, conditions.length, maxMatchConditions));
  const names = new Set<string>();
  conditions.forEach((item, i) => {
    const condition = asObject(item) ?? {};
    errs.push(...validateMatchCondition(condition, index(path, i), options.allowParams === true));
    const name = typeof condition.name === "string" ? condition.name : "";
    if (name === "") return;
    if (names.has(name)) errs.push(duplicate(child(index(path, i), "name"), name));
    else names.add(name);
  });
  return errs;
}
