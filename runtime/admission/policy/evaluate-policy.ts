// One evaluation of a compiled policy against one request and one param: match conditions, then
// validations (with their messages) and audit annotations, under the per-expression cost limit and the
// policy's shared run-time budget, with kube-apiserver's decisions and texts.

import type { ObjectType } from "../../cel/common/cel-types.js";
import type { Activation } from "../../cel/common/evaluation.js";
import { jsonToCel } from "../../cel/common/json-to-cel.js";
import { CelError, type CelValue } from "../../cel/common/values.js";
import type { CompiledExpression, CompiledPolicy } from "./compile-policy.js";
import { LazyVariables } from "./lazy-variables.js";

/** kube's RuntimeCELCostBudget: what all of a policy's expressions may spend on one request. */
export const runtimeCostBudget = 10_000_000;

/** kube's MaxEvaluatedMessageExpressionSizeBytes. */
const maxMessageBytes = 5 * 1024;

export interface PolicyInputs {
  object: unknown;
  oldObject: unknown;
  request: Record<string, unknown>;
  params: unknown;
  namespaceObject: unknown;
  authorizer: CelValue;
  /** `authorizer.requestResource`: a check preset to the request's resource. */
  requestResource: CelValue;
}

export type Decision =
  | { action: "admit" }
  /** A validation that did not hold (reason set), or an error under failurePolicy Fail. */
  | { action: "deny"; message: string; reason?: string; index: number };

export interface AuditAnnotationResult {
  key: string;
  value?: string;
  /** An error under failurePolicy Fail denies the request. */
  error?: string;
}

export interface PolicyResult {
  /** Match conditions failed with an error (kube's decision for the whole policy). */
  matchError?: string;
  /** False when a match condition is false: the policy does not apply. */
  matched: boolean;
  decisions: Decision[];
  auditAnnotations: AuditAnnotationResult[];
}

class Budget {
  remaining = runtimeCostBudget;
  exhausted = false;
}

export function evaluatePolicy(policy: CompiledPolicy, inputs: PolicyInputs): PolicyResult {
  const budget = new Budget();
  const values: Record<string, CelValue> = {
    object: jsonToCel(inputs.object),
    oldObject: jsonToCel(inputs.oldObject),
    request: jsonToCel(inputs.request),
    params: jsonToCel(inputs.params),
    namespaceObject: jsonToCel(inputs.namespaceObject),
    authorizer: inputs.authorizer,
    "authorizer.requestResource": inputs.requestResource,
  };
  const run = (expression: CompiledExpression): CelValue => {
    if (expression.program === undefined) return new CelError(`compilation error: ${expression.problem ?? ""}`);
    if (budget.exhausted) return new CelError(outOfBudget);
    const { value, cost } = expression.program.eval(activation);
    budget.remaining -= cost;
    if (budget.remaining < 0) {
      budget.exhausted = true;
      return new CelError(outOfBudget);
    }
    return value;
  };
  values.variables = new LazyVariables(policy.variablesType as ObjectType, policy.variables, run);
  const activation: Activation = (name) => values[name];

  // A false condition skips the policy even when another one failed; otherwise the first error decides.
  let matchError: string | undefined;
  for (const condition of policy.matchConditions) {
    const value = run(condition.expression);
    if (value === false) return { matched: false, decisions: [], auditAnnotations: [] };
    if (value instanceof CelError && matchError === undefined) {
      matchError = `failed to evaluate matchCondition '${condition.name}': ${value.message}`;
    }
  }
  if (matchError !== undefined) return { matched: true, matchError, decisions: [], auditAnnotations: [] };

  const decisions: Decision[] = policy.validations.map((validation, index): Decision => {
    const value = run(validation.expression);
    if (value instanceof CelError) {
      const message =
        value.message === outOfBudget || validation.expression.program === undefined
          ? value.message
          : `expression '${validation.expression.source}' resulted in error: ${value.message}`;
      return policy.failurePolicy === "Ignore" ? { action: "admit" } : { action: "deny", message, index };
    }
    if (value === true) return { action: "admit" };
    return {
      action: "deny",
      message: failureMessage(validation, run),
      reason: validation.reason ?? "Invalid",
      index,
    };
  });

  const auditAnnotations = policy.auditAnnotations.map(({ key, valueExpression }): AuditAnnotationResult => {
    const value = run(valueExpression);
    if (value instanceof CelError) {
      return policy.failurePolicy === "Ignore" ? { key } : { key, error: value.message };
    }
    if (typeof value === "string") {
      const trimmed = value.trim();
      return trimmed === "" ? { key } : { key, value: trimmed };
    }
    return { key };
  });
  return { matched: true, decisions, auditAnnotations };
}

const outOfBudget = "validation failed due to running out of cost budget, no further validation rules will be run";

function failureMessage(
  validation: CompiledPolicy["validations"][number],
  run: (expression: CompiledExpression) => CelValue,
): string {
  if (validation.messageExpression !== undefined) {
    const value = run(validation.messageExpression);
    if (typeof value === "string") {
      const message = value.trim();
      if (message !== "" && Buffer.byteLength(message) <= maxMessageBytes && !message.includes("\n")) return message;
    }
  }
  const message = validation.message?.trim() ?? "";
  return message !== "" ? message : `failed expression: ${validation.expression.source.trim()}`;
}
