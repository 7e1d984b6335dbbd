// A webhook's matchConditions: CEL expressions over `object`, `oldObject`, `request` and `authorizer`, in
// the environment kube compiles webhook conditions in (no params; `namespaceObject` declared, always null).
// A false condition skips the webhook; otherwise an error decides under the webhook's failurePolicy.
import { BoolType, DynType } from "../../cel/common/cel-types.js";
import { jsonToCel } from "../../cel/common/json-to-cel.js";
import { CelError, type CelValue } from "../../cel/common/values.js";
import { authorizerVariables } from "../../cel/library/kubernetes/authorizer-library.js";
import { type CompiledExpression, compileExpression, type PolicyEnvironment } from "../policy/compile-policy.js";
import { admissionRequestType } from "../policy/request-variable.js";

/** kube's RuntimeCELCostBudgetMatchConditions: what all of a webhook's conditions may spend on one request. */
const costBudget = 2_500_000;

export interface CompiledConditions {
  readonly conditions: readonly { name: string; expression: CompiledExpression }[];
}

export function compileConditions(
  conditions: readonly { name?: string; expression?: string }[],
  environment: PolicyEnvironment,
): CompiledConditions {
  const env = environment.base.extend([
    { name: "object", type: DynType },
    { name: "oldObject", type: DynType },
    { name: "request", type: admissionRequestType },
    { name: "namespaceObject", type: DynType },
    ...authorizerVariables,
  ]);
  return {
    conditions: conditions.map((c) => ({
      name: c.name ?? "",
      expression: compileExpression(env, c.expression ?? "", [BoolType]),
    })),
  };
}

export interface ConditionInputs {
  object: unknown;
  oldObject: unknown;
  request: Record<string, unknown>;
  authorizer: CelValue;
  requestResource: CelValue;
}

/** Whether the webhook applies, or the error kube reports (one error's text, or several as `[a, b]`). */
export type ConditionResult = { matches: boolean } | { error: string };

export function evaluateConditions(compiled: CompiledConditions, inputs: ConditionInputs): ConditionResult {
  const values: Record<string, CelValue> = {
    object: jsonToCel(inputs.object),
    oldObject: jsonToCel(inputs.oldObject),
    request: jsonToCel(inputs.request),
    namespaceObject: null,
    authorizer: inputs.authorizer,
    "authorizer.requestResource": inputs.requestResource,
  };
  let remaining = costBudget;
  const errors: string[] = [];
  for (const { expression } of compiled.conditions) {
    if (expression.program === undefined) {
      errors.push(`compilation error: ${expression.problem ?? ""}`);
      continue;
    }
    const { value, cost } = expression.program.eval((name) => values[name]);
    remaining -= cost;
    if (remaining < 0)
      return { error: "validation failed due to running out of cost budget, no further validation rules will be run" };
    if (value === false) return { matches: false };
    if (value instanceof CelError) {
      errors.push(`expression '${expression.source}' resulted in error: ${value.message}`);
    }
  }
  if (errors.length === 0) return { matches: true };
  return { error: errors.length === 1 ? (errors[0] as string) : `[${errors.join(", ")}]` };
}
