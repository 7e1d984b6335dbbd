// Leaves of the planned tree: constants, variables from the activation, and comprehension variables in
// frame slots. Identifier cost follows cel-go's tracker: 1 per variable read, 0 for constants; the planner
// passes 0 where cel-go resolves the attribute without observing it (a conditional's branches, index values).
import { CelError, type CelValue } from "../common/values.js";
import { noSuchAttribute } from "./eval-errors.js";
import type { Evaluator, Frame } from "./frame.js";
import { selectField } from "./selection.js";

export class Constant implements Evaluator {
  constructor(
    readonly id: number,
    readonly value: CelValue,
  ) {}

  eval(): CelValue {
    return this.value;
  }
}

/** A declared (or checker-resolved) variable. */
export class Variable implements Evaluator {
  constructor(
    readonly id: number,
    readonly name: string,
    readonly cost: number,
  ) {}

  eval(frame: Frame): CelValue {
    frame.cost += this.cost;
    const value = frame.activation(this.name);
    return value === undefined ? noSuchAttribute([this.name], this.id) : value;
  }
}

/** One way to read an unchecked dotted name: a variable under one of `names`, then field selections. */
export interface NameReading {
  /** Candidate variable names in namespace resolution order (container first). */
  readonly names: readonly string[];
  readonly fields: readonly string[];
}

/**
 * An unchecked identifier or dotted name (`a.b.c`) that may be a variable `a.b.c`, a variable `a.b` with
 * field `c`, or `a` with fields `b.c`: the longest name the activation has wins, as cel-go's maybe-attribute.
 */
export class QualifiedName implements Evaluator {
  constructor(
    readonly id: number,
    /** Readings from the most qualified name to the least. */
    readonly readings: readonly NameReading[],
    readonly cost: number,
    /** See ProgramOptions.errorOnBadPresenceTest (env.ts). */
    readonly strictPresence: boolean,
  ) {}

  eval(frame: Frame): CelValue {
    frame.cost += this.cost;
    for (const reading of this.readings) {
      for (const name of reading.names) {
        let value = frame.activation(name);
        if (value === undefined) continue;
        for (const field of reading.fields) {
          frame.cost += 1;
          value = selectField(value, field, this.id, this.strictPresence);
        }
        return value;
      }
    }
    return noSuchAttribute(this.readings[0]?.names ?? [], this.id);
  }
}

/** An iteration variable of an enclosing comprehension. */
export class Local implements Evaluator {
  constructor(
    readonly id: number,
    readonly slot: number,
    readonly cost: number,
  ) {}

  eval(frame: Frame): CelValue {
    frame.cost += this.cost;
    return frame.locals[this.slot] as CelValue;
  }
}

/** Marks an accumulator whose initial value has not been computed yet. */
export const UNINITIALIZED = new CelError("comprehension accumulator read before initialization");

/**
 * A comprehension accumulator. Its initializer runs on first read, as in cel-go, so `cel.bind(x, init, e)`
 * evaluates (and pays for) `init` only when `e` uses `x`.
 */
export class Accumulator implements Evaluator {
  constructor(
    readonly id: number,
    readonly slot: number,
    readonly cost: number,
    readonly init: Evaluator,
  ) {}

  eval(frame: Frame): CelValue {
    frame.cost += this.cost;
    const value = frame.locals[this.slot] as CelValue;
    if (value !== UNINITIALIZED) return value;
    const initial = this.init.eval(frame);
    frame.locals[this.slot] = initial;
    return initial;
  }
}
