// The operators the planner evaluates itself because they do not evaluate all their arguments or absorb
// errors: `&&` and `||` (commutative: `error && false` is false), `?:`, `@not_strictly_false` (the loop
// condition of `all`/`exists`), and optional `or`/`orValue`, which evaluate their right side only when needed.
import { CelOptional, type CelValue } from "../common/values.js";
import { noSuchOverloadFor } from "./eval-errors.js";
import type { Evaluator, Frame } from "./frame.js";

/**
 * `&&` (absorbing false) or `||` (absorbing true): the absorbing value wins from either side, even over an
 * error; otherwise the left-most error, and "no such overload" for an operand that is not a bool.
 */
export class Logical implements Evaluator {
  constructor(
    readonly id: number,
    readonly lhs: Evaluator,
    readonly rhs: Evaluator,
    readonly absorbing: boolean,
  ) {}

  eval(frame: Frame): CelValue {
    const absorbing = this.absorbing;
    const lhs = this.lhs.eval(frame);
    if (lhs === absorbing) return absorbing;
    const rhs = this.rhs.eval(frame);
    if (rhs === absorbing) return absorbing;
    if (lhs === !absorbing) return rhs === !absorbing ? rhs : noSuchOverloadFor(rhs, this.id);
    return noSuchOverloadFor(lhs, this.id);
  }
}

/** `cond ? truthy : falsy`: only the chosen branch is evaluated. */
export class Conditional implements Evaluator {
  constructor(
    readonly id: number,
    readonly condition: Evaluator,
    readonly truthy: Evaluator,
    readonly falsy: Evaluator,
  ) {}

  eval(frame: Frame): CelValue {
    const condition = this.condition.eval(frame);
    if (condition === true) return this.truthy.eval(frame);
    if (condition === false) return this.falsy.eval(frame);
    return noSuchOverloadFor(condition, this.id);
  }
}

/** `@not_strictly_false(x)`: x when it is a bool, true otherwise (errors included). A call: cost 1. */
export class NotStrictlyFalse implements Evaluator {
  constructor(
    readonly id: number,
    readonly operand: Evaluator,
  ) {}

  eval(frame: Frame): CelValue {
    const value = this.operand.eval(frame);
    frame.cost += 1;
    return typeof value === "boolean" ? value : true;
  }
}

/**
 * `a.or(b)` (a when it has a value, else b) or, unwrapping, `a.orValue(b)` (a's value, else b); b is
 * evaluated only when a is none.
 */
export class OptionalOr implements Evaluator {
  constructor(
    readonly id: number,
    readonly lhs: Evaluator,
    readonly rhs: Evaluator,
    readonly unwrap: boolean,
  ) {}

  eval(frame: Frame): CelValue {
    const lhs = this.lhs.eval(frame);
    if (!(lhs instanceof CelOptional)) return noSuchOverloadFor(lhs, this.id);
    if (lhs.value === undefined) return this.rhs.eval(frame);
    return this.unwrap ? lhs.value : lhs;
  }
}
