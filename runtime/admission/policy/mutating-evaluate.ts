// One invocation of a compiled mutating policy (one binding, one param, one version of the object): the
// admission variables, `variables` evaluated lazily once, the match conditions as kube's condition matcher
// reads them, and each mutation's expression, under the per-expression cost limit and a shared budget.
import type { ObjectType } from "../../cel/common/cel-types.js";
import type { Activation } from "../../cel/common/evaluation.js";
import { jsonToCel } from "../../cel/common/json-to-cel.js";
import { CelError, type CelValue } from "../../cel/common/values.js";
import type { CompiledExpression } from "./compile-policy.js";
import { type PolicyInputs, runtimeCostBudget } from "./evaluate-policy.js";
import { LazyVariables } from "./lazy-variables.js";
import type { CompiledMutatingPolicy } from "./mutating-compile-policy.js";

const outOfBudget = "validation failed due to running out of cost budget, no further validation rules will be run";

export type MatchOutcome = { matches: true } | { matches: false } | { error: string };

export class MutatingInvocation {
  private remaining = runtimeCostBudget;
  private readonly values: Record<string, CelValue>;
  private readonly activation: Activation;

  constructor(
    private readonly policy: CompiledMutatingPolicy,
    inputs: PolicyInputs,
  ) {
    this.values = {
      object: jsonToCel(inputs.object),
      oldObject: jsonToCel(inputs.oldObject),
      request: jsonToCel(inputs.request),
      params: jsonToCel(inputs.params),
      namespaceObject: jsonToCel(inputs.namespaceObject),
      authorizer: inputs.authorizer,
      "authorizer.requestResource": inputs.requestResource,
    };
    this.values.variables = new LazyVariables(policy.variablesType as ObjectType, policy.variables, (e) => this.run(e));
    this.activation = (name) => this.values[name];
  }

  /** The object the next mutation sees, after the previous one changed it. */
  setObject(object: unknown): void {
    this.values.object = jsonToCel(object);
  }

  /** An expression's value, or a CelError whose message is kube's text for the failure. */
  run(expression: CompiledExpression): CelValue {
    if (expression.program === undefined) return new CelError(`compilation error: ${expression.problem ?? ""}`);
    if (this.remaining < 0) return new CelError(outOfBudget);
    const { value, cost } = expression.program.eval(this.activation);
    this.remaining -= cost;
    if (this.remaining < 0) return new CelError(outOfBudget);
    if (value instanceof CelError) {
      return new CelError(`expression '${expression.source}' resulted in error: ${value.message}`);
    }
    return value;
  }

  /**
   * kube's condition matcher: a false condition means no match; otherwise errors fail the match (all of
   * them, as an aggregate) under failurePolicy Fail and skip the policy under Ignore.
   */
  matches(): MatchOutcome {
    const errors: string[] = [];
    for (const condition of this.policy.matchConditions) {
      const value = this.run(condition.expression);
      if (value === false) return { matches: false };
      if (value instanceof CelError) errors.push(value.message);
    }
    if (errors.length === 0) return { matches: true };
    if (this.policy.failurePolicy === "Ignore") return { matches: false };
    return { error: errors.length === 1 ? (errors[0] as string) : `[${errors.join(", ")}]` };
  }
}
