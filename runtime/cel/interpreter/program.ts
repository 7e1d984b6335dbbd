// A planned program: evaluates its tree in a fresh frame and reports the value and the cost, turning an
// evaluation over the cost limit into cel-go's cancellation error.

import type { Activation, EvalResult, Program } from "../common/evaluation.js";
import { CelError, type CelValue } from "../common/values.js";
import { CostLimitExceededError, type Evaluator, Frame } from "./frame.js";

const NO_LOCALS: CelValue[] = [];

export class PlannedProgram implements Program {
  constructor(
    private readonly root: Evaluator,
    private readonly slotCount: number,
    private readonly costLimit: number,
  ) {}

  eval(activation: Activation): EvalResult {
    const frame = new Frame(activation, this.costLimit, this.slotCount === 0 ? NO_LOCALS : new Array(this.slotCount));
    let value: CelValue;
    // Implementations return errors rather than throw; one that throws anyway fails the whole evaluation.
    try {
      value = this.root.eval(frame);
    } catch (e) {
      value = new CelError(e instanceof Error ? e.message : String(e));
    }
    if (frame.cost > this.costLimit) value = new CostLimitExceededError();
    return { value, cost: frame.cost };
  }
}
