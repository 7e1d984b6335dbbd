// Selection and indexing nodes. Each step costs 1, as a qualifier does in cel-go's tracker; when the
// operand is not itself a variable or selection (a call, a literal) cel-go wraps it in a relative
// attribute that costs 1 more, which the planner folds into `cost`. `has()` adds nothing of its own:
// Kubernetes keeps cel-go's PresenceTestHasCost(false).
import { CelError, type CelValue } from "../common/values.js";
import type { Evaluator, Frame } from "./frame.js";

/** How a step reads its operand: selectField, optionalSelect or hasField (selection.ts). */
export type FieldAccess = (operand: CelValue, field: string, exprId: number, strict: boolean) => CelValue;

/** How a step indexes its operand: indexValue or optionalIndex (selection.ts). */
export type IndexAccess = (operand: CelValue, key: CelValue, exprId: number, strict: boolean) => CelValue;

/** `operand.field`, `operand.?field` or `has(operand.field)`. */
export class FieldStep implements Evaluator {
  constructor(
    readonly id: number,
    readonly operand: Evaluator,
    readonly field: string,
    readonly cost: number,
    readonly access: FieldAccess,
    /** Presence tests and optional access on values without fields fail (EnableErrorOnBadPresenceTest). */
    readonly strict: boolean,
  ) {}

  eval(frame: Frame): CelValue {
    const operand = this.operand.eval(frame);
    frame.cost += this.cost;
    return this.access(operand, this.field, this.id, this.strict);
  }
}

/** `operand[index]` or `operand[?index]`; the index is not evaluated when the operand already failed. */
export class IndexStep implements Evaluator {
  constructor(
    readonly id: number,
    readonly operand: Evaluator,
    readonly index: Evaluator,
    readonly cost: number,
    readonly access: IndexAccess,
    readonly strict: boolean,
  ) {}

  eval(frame: Frame): CelValue {
    const operand = this.operand.eval(frame);
    frame.cost += this.cost;
    if (operand instanceof CelError) return operand;
    return this.access(operand, this.index.eval(frame), this.id, this.strict);
  }
}
