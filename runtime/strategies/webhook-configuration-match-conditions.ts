// A webhook's matchConditions as kube-apiserver validates them: at most 64, names qualified and unique,
// each expression compiling to exactly bool in the environment webhook match conditions run in
// (object, oldObject, namespaceObject, request and the authorizer; no params, no variables).
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

let environment: CelEnv | undefined;

function matchConditionEnvironment(): CelEnv {
  environment ??= kubernetesBaseEnv().extend([
    { name: "object", type: DynType },
    { name: "oldObject", type: DynType },
    { name: "namespaceObject", type: namespaceObjectType },
    { name: "request", type: admissionRequestType },
    ...authorizerVariables,
  ]);
  return environment;
}

/** Why an expression is not a match condition, worded as kube's CEL compiler words it; undefined if it is one. */
function expressionProblem(expression: string): string | undefined {
  const checked = matchConditionEnvironment().compile(expression);
  if (checked instanceof CelIssues) return `compilation failed: ${checked.toDisplayString()}`;
  const type = (checked as CheckedAst).types.get(checked.expr.id) ?? DynType;
  // kube wants exactly bool: a dyn result is refused too.
  return type.kind === "bool" ? undefined : `must evaluate to bool but got ${formatType(type)}`;
}

function validateMatchCondition(condition: Record<string, unknown>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const expression = (typeof condition.expression === "string" ? condition.expression : "").trim();
  const expressionPath = child(path, "expression");
  if (expression === "") {
    errs.push(required(expressionPath));
  } else {
    const problem = expressionProblem(expression);
    if (problem !== undefined) errs.push(invalid(expressionPath, expression, problem));
  }
  const name = typeof condition.name === "string" ? condition.name : "";
  const namePath = child(path, "name");
  if (name === "") errs.push(required(namePath));
  else errs.push(...qualifiedNameErrors(name).map((msg) => invalid(namePath, name, msg)));
  return errs;
}

/** validateMatchConditions at `path` (`webhooks[0].matchConditions`). */
export function validateMatchConditions(conditions: readonly unknown[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (conditions.length > maxMatchConditions) errs.push(tooMany(path, conditions.length, maxMatchConditions));
  const names = new Set<string>();
  conditions.forEach((item, i) => {
    const condition = asObject(item) ?? {};
    errs.push(...validateMatchCondition(condition, index(path, i)));
    const name = typeof condition.name === "string" ? condition.name : "";
    if (name === "") return;
    if (names.has(name)) errs.push(duplicate(child(index(path, i), "name"), name));
    else names.add(name);
  });
  return errs;
}
