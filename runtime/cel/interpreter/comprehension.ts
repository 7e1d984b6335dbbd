// The fold every macro expands to. It iterates a list's elements (two-variable form: index and element)
// or a map's keys (two-variable form: key and value), stops as soon as the loop condition is false, and
// evaluates the result with the accumulator. The accumulator starts uninitialized and is computed on first
// read (see Accumulator). Iteration itself has no cost; a cost limit is checked once per iteration so a
// runaway loop stops early.
import type { OverloadDecl } from "../common/decls.js";
import { CelError, CelList, CelMap, type CelValue } from "../common/values.js";
import { callCost } from "./calls.js";
import { valueTypeName } from "./eval-errors.js";
import { CostLimitExceededError, type Evaluator, type Frame } from "./frame.js";
import { UNINITIALIZED } from "./variables.js";

export interface ComprehensionSlots {
  readonly iterVar: number;
  /** -1 for one-variable comprehensions. */
  readonly iterVar2: number;
  readonly accuVar: number;
}

export class Comprehension implements Evaluator {
  constructor(
    readonly id: number,
    readonly slots: ComprehensionSlots,
    readonly range: Evaluator,
    readonly condition: Evaluator,
    readonly step: Evaluator,
    readonly result: Evaluator,
    /** The accumulator is a list the step appends to in place (see AppendToAccumulator). */
    readonly buildsList: boolean,
  ) {}

  eval(frame: Frame): CelValue {
    const range = this.range.eval(frame);
    if (range instanceof CelError) return range;
    const { iterVar, iterVar2, accuVar } = this.slots;
    const locals = frame.locals;
    locals[accuVar] = this.buildsList ? new GrowingList() : UNINITIALIZED;
    if (range instanceof CelList) {
      for (let i = 0; i < range.size; i++) {
        if (iterVar2 < 0) locals[iterVar] = range.get(i);
        else {
          locals[iterVar] = BigInt(i);
          locals[iterVar2] = range.get(i);
        }
        if (!this.iterate(frame)) break;
      }
    } else if (range instanceof CelMap) {
      for (const key of range.keys()) {
        locals[iterVar] = key;
        if (iterVar2 >= 0) locals[iterVar2] = range.get(key) as CelValue;
        if (!this.iterate(frame)) break;
      }
    } else {
      const message =
        iterVar2 < 0
          ? `got '${valueTypeName(range)}', expected iterable type`
          : `unsupported comprehension range type: ${valueTypeName(range)}`;
      return new CelError(message, this.id);
    }
    if (frame.cost > frame.limit) return new CostLimitExceededError();
    return this.result.eval(frame);
  }

  /** One iteration; false when the loop stops (condition false, or over the cost limit). */
  private iterate(frame: Frame): boolean {
    if (frame.cost > frame.limit) return false;
    if (this.condition.eval(frame) === false) return false;
    frame.locals[this.slots.accuVar] = this.step.eval(frame);
    return true;
  }
}

/** The accumulator of a list-building comprehension; only AppendToAccumulator grows it, during its own loop. */
class GrowingList extends CelList {
  readonly items: CelValue[] = [];

  get size(): number {
    return this.items.length;
  }

  get(index: number): CelValue {
    return this.items[index] as CelValue;
  }
}

/**
 * `@result + [elements]` in the step of a comprehension whose accumulator starts as `[]` (map, filter):
 * appends to the accumulator in place instead of copying it every iteration. Costs what the accumulator
 * read, the literal and the list concatenation (`add_list`) cost.
 */
export class AppendToAccumulator implements Evaluator {
  constructor(
    readonly id: number,
    readonly accuVar: number,
    readonly accumulatorCost: number,
    readonly elements: Evaluator,
    readonly concatenation: OverloadDecl,
  ) {}

  eval(frame: Frame): CelValue {
    frame.cost += this.accumulatorCost;
    const accumulator = frame.locals[this.accuVar] as CelValue;
    const added = this.elements.eval(frame);
    if (accumulator instanceof CelError || added instanceof CelError) {
      frame.cost += 1;
      return accumulator instanceof CelError ? accumulator : added;
    }
    const list = accumulator as GrowingList;
    for (const item of added as CelList) list.items.push(item);
    frame.cost += callCost(this.concatenation, [list, added], list);
    return list;
  }
}
