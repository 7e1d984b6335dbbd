// What a macro expander builds its expansion with (cel-go's ExprHelper): every node gets a fresh id
// positioned at the macro call, so errors about the expansion point at the call.
import type { ConstantValue, Expr, MapEntry } from "../common/ast.js";
import type { MacroHelper } from "../common/decls.js";

/** The id allocator of the parse in progress. */
export interface IdAllocator {
  /** A new id positioned at the code-point offset (none when negative). */
  newId(offset: number): number;
  positionOf(id: number): number | undefined;
}

/** cel-go's hidden accumulator name: `@` cannot appear in an identifier, so no expression can shadow it. */
export const ACCUMULATOR_NAME = "@result";

export class ParserMacroHelper implements MacroHelper {
  readonly accuName = ACCUMULATOR_NAME;

  constructor(
    private readonly ids: IdAllocator,
    /** The id of the call being expanded; expansion nodes share its position. */
    private readonly callId: number,
  ) {}

  nextId(): number {
    return this.ids.newId(this.ids.positionOf(this.callId) ?? -1);
  }

  ident(name: string): Expr {
    return { kind: "ident", id: this.nextId(), name };
  }

  /** A reference to the accumulator. */
  accuIdent(): Expr {
    return this.ident(this.accuName);
  }

  literal(value: ConstantValue): Expr {
    return { kind: "const", id: this.nextId(), value };
  }

  call(fn: string, ...args: Expr[]): Expr {
    return { kind: "call", id: this.nextId(), function: fn, args };
  }

  memberCall(fn: string, target: Expr, ...args: Expr[]): Expr {
    return { kind: "call", id: this.nextId(), target, function: fn, args };
  }

  select(operand: Expr, field: string): Expr {
    return { kind: "select", id: this.nextId(), operand, field, testOnly: false };
  }

  presenceTest(operand: Expr, field: string): Expr {
    return { kind: "select", id: this.nextId(), operand, field, testOnly: true };
  }

  list(...elements: Expr[]): Expr {
    return { kind: "list", id: this.nextId(), elements, optionalIndices: [] };
  }

  /** A map literal from key/value pairs (`{}` without entries). */
  map(...entries: { readonly key: Expr; readonly value: Expr; readonly optional?: boolean }[]): Expr {
    const built: MapEntry[] = entries.map((e) => ({
      id: this.nextId(),
      key: e.key,
      value: e.value,
      optional: e.optional === true,
    }));
    return { kind: "map", id: this.nextId(), entries: built };
  }

  fold(
    iterVar: string,
    iterRange: Expr,
    accuVar: string,
    accuInit: Expr,
    condition: Expr,
    step: Expr,
    result: Expr,
    iterVar2?: string,
  ): Expr {
    const id = this.nextId();
    const loopCondition = condition;
    const loopStep = step;
    return iterVar2 === undefined
      ? { kind: "comprehension", id, iterVar, iterRange, accuVar, accuInit, loopCondition, loopStep, result }
      : { kind: "comprehension", id, iterVar, iterVar2, iterRange, accuVar, accuInit, loopCondition, loopStep, result };
  }

  /** A deep copy with fresh ids at the original positions (cel-go's Copy), for an argument used twice. */
  copy(expr: Expr): Expr {
    const id = this.ids.newId(this.ids.positionOf(expr.id) ?? -1);
    switch (expr.kind) {
      case "const":
      case "ident":
        return { ...expr, id };
      case "select":
        return { ...expr, id, operand: this.copy(expr.operand) };
      case "call": {
        const args = expr.args.map((a) => this.copy(a));
        return expr.target === undefined
          ? { kind: "call", id, function: expr.function, args }
          : { kind: "call", id, target: this.copy(expr.target), function: expr.function, args };
      }
      case "list":
        return { ...expr, id, elements: expr.elements.map((e) => this.copy(e)) };
      case "map":
        return {
          ...expr,
          id,
          entries: expr.entries.map((e) => ({
            ...e,
            id: this.ids.newId(this.ids.positionOf(e.id) ?? -1),
            key: this.copy(e.key),
            value: this.copy(e.value),
          })),
        };
      case "struct":
        return {
          ...expr,
          id,
          fields: expr.fields.map((f) => ({
            ...f,
            id: this.ids.newId(this.ids.positionOf(f.id) ?? -1),
            value: this.copy(f.value),
          })),
        };
      case "comprehension":
        return {
          ...expr,
          id,
          iterRange: this.copy(expr.iterRange),
          accuInit: this.copy(expr.accuInit),
          loopCondition: this.copy(expr.loopCondition),
          loopStep: this.copy(expr.loopStep),
          result: this.copy(expr.result),
        };
    }
  }
}
