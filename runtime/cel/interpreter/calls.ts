// Function calls. Arguments are evaluated left to right; a strict function returns the first error
// argument without being called. A call resolved at plan time goes straight to its implementation (behind
// a type guard only when the checked types do not guarantee a match); otherwise the overload is chosen at
// run time from the argument values. Cost: the overload's actual-cost hook, or 1, as cel-go's tracker.
import type { OverloadDecl } from "../common/decls.js";
import { CelError, CelUint, type CelValue, mapKeyOf } from "../common/values.js";
import { argumentsMatch } from "./dispatch.js";
import { noSuchOverload } from "./eval-errors.js";
import type { Evaluator, Frame } from "./frame.js";

/** An overload that has an implementation. */
export type BoundOverload = OverloadDecl & Required<Pick<OverloadDecl, "impl">>;

/** The run-time cost of one call: the overload's actual-cost hook, or 1. */
export function callCost(overload: OverloadDecl, args: readonly CelValue[], result: CelValue): number {
  const cost = overload.cost;
  if (cost?.actual === undefined) return 1;
  return cost.actual(args, result) ?? 1;
}

function firstError(args: readonly CelValue[]): CelError | undefined {
  for (const arg of args) if (arg instanceof CelError) return arg;
  return undefined;
}

/** Calls a plan-time overload, behind its signature guard when `guarded`, and adds the call's cost. */
function invoke(
  node: { readonly id: number; readonly fn: string; readonly overload: BoundOverload; readonly guarded: boolean },
  args: CelValue[],
  frame: Frame,
  strict: boolean,
): CelValue {
  if (node.guarded && !argumentsMatch(node.overload, args, !strict)) {
    frame.cost += 1;
    return noSuchOverload(node.fn, args, node.id);
  }
  const result = node.overload.impl(args, frame);
  frame.cost += callCost(node.overload, args, result);
  return result;
}

/** A strict call with two arguments (receiver first) to a plan-time overload: the common operator case. */
export class BinaryCall implements Evaluator {
  constructor(
    readonly id: number,
    readonly fn: string,
    readonly overload: BoundOverload,
    readonly lhs: Evaluator,
    readonly rhs: Evaluator,
    /** Check the arguments against the overload's signature first. */
    readonly guarded: boolean,
  ) {}

  eval(frame: Frame): CelValue {
    const lhs = this.lhs.eval(frame);
    const rhs = this.rhs.eval(frame);
    const error = lhs instanceof CelError ? lhs : rhs instanceof CelError ? rhs : undefined;
    if (error !== undefined) {
      frame.cost += 1;
      return error;
    }
    return invoke(this, [lhs, rhs], frame, true);
  }
}

/** A call with any number of arguments to a plan-time overload; a non-strict one sees error arguments. */
export class Call implements Evaluator {
  constructor(
    readonly id: number,
    readonly fn: string,
    readonly overload: BoundOverload,
    readonly args: readonly Evaluator[],
    readonly guarded: boolean,
    readonly strict: boolean,
  ) {}

  eval(frame: Frame): CelValue {
    const args = evalArgs(this.args, frame);
    const error = this.strict ? firstError(args) : undefined;
    if (error !== undefined) {
      frame.cost += 1;
      return error;
    }
    return invoke(this, args, frame, this.strict);
  }
}

/** A call whose overload is chosen from the argument values: the first candidate whose signature matches. */
export class DynamicCall implements Evaluator {
  constructor(
    readonly id: number,
    readonly fn: string,
    readonly candidates: readonly BoundOverload[],
    readonly args: readonly Evaluator[],
    readonly strict: boolean,
  ) {}

  eval(frame: Frame): CelValue {
    const args = evalArgs(this.args, frame);
    const error = this.strict ? firstError(args) : undefined;
    if (error === undefined) {
      for (const overload of this.candidates) {
        if (overload.disableTypeGuards !== true && !argumentsMatch(overload, args, !this.strict)) continue;
        const result = overload.impl(args, frame);
        frame.cost += callCost(overload, args, result);
        return result;
      }
    }
    frame.cost += 1;
    return error ?? noSuchOverload(this.fn, args, this.id);
  }
}

function evalArgs(evaluators: readonly Evaluator[], frame: Frame): CelValue[] {
  const args = new Array<CelValue>(evaluators.length);
  for (let i = 0; i < evaluators.length; i++) args[i] = (evaluators[i] as Evaluator).eval(frame);
  return args;
}

/**
 * `x in [constants]` for a constant list of bools, numbers and strings: a set lookup (cel-go's
 * OptOptimize set membership, which Kubernetes enables). Numbers match across int, uint and double.
 * Like cel-go's, the lookup itself has no cost.
 */
export class SetMembership implements Evaluator {
  constructor(
    readonly id: number,
    readonly element: Evaluator,
    readonly members: ReadonlySet<string>,
  ) {}

  eval(frame: Frame): CelValue {
    const element = this.element.eval(frame);
    if (element instanceof CelError) return element;
    const key = membershipKey(element);
    return key !== undefined && this.members.has(key);
  }
}

/** The set key of a primitive list element; undefined for values a constant set cannot hold. */
export function membershipKey(value: CelValue): string | undefined {
  if (typeof value === "number" && !Number.isInteger(value)) return Number.isNaN(value) ? undefined : `d${value}`;
  if (
    typeof value === "boolean" ||
    typeof value === "string" ||
    typeof value === "bigint" ||
    typeof value === "number"
  ) {
    return mapKeyOf(value);
  }
  return value instanceof CelUint ? mapKeyOf(value) : undefined;
}
