// The state of one evaluation and the shape of the planned tree. The planner turns an expression into a
// tree of small evaluator objects once; each evaluation walks that tree with a fresh Frame holding the
// activation, the comprehension variables (in slots the planner assigned) and the running cost.
import type { CallContext } from "../common/decls.js";
import type { Activation } from "../common/evaluation.js";
import { CelError, type CelValue } from "../common/values.js";

/** One planned node: evaluates its expression in a frame. Never throws for bad input; errors are CelError values. */
export interface Evaluator {
  /** The expression id the node was planned from. */
  readonly id: number;
  eval(frame: Frame): CelValue;
}

/** Evaluation state; implementations receive it as their CallContext so they can add cost. */
export class Frame implements CallContext {
  /** Run-time cost so far, counted as cel-go's cost tracker counts it. */
  cost = 0;

  constructor(
    readonly activation: Activation,
    /** Cost beyond which evaluation stops; Infinity when there is no limit. */
    readonly limit: number,
    /** Comprehension variables by slot. */
    readonly locals: CelValue[],
  ) {}

  addCost(cost: number): void {
    this.cost += cost;
  }
}

/** cel-go's wording when the actual cost exceeds the program's limit. */
export const COST_LIMIT_EXCEEDED_MESSAGE = "operation cancelled: actual cost limit exceeded";

/** The error an evaluation ends with once its cost exceeds the limit (Kubernetes tells it apart from other errors). */
export class CostLimitExceededError extends CelError {
  constructor() {
    super(COST_LIMIT_EXCEEDED_MESSAGE);
  }
}
