// A policy's `variables` as CEL sees them: each variable is evaluated at most once, on first use, with the
// inputs of the one evaluation it belongs to.
import type { ObjectType } from "../../cel/common/cel-types.js";
import { CelObject, type CelValue } from "../../cel/common/values.js";
import type { CompiledExpression } from "./compile-policy.js";

export interface CompiledVariable {
  readonly name: string;
  readonly expression: CompiledExpression;
}

export class LazyVariables extends CelObject {
  private readonly values = new Map<string, CelValue>();
  constructor(
    readonly type: ObjectType,
    private readonly compiled: readonly CompiledVariable[],
    private readonly run: (expression: CompiledExpression) => CelValue,
  ) {
    super();
  }
  get(field: string): CelValue | undefined {
    const known = this.values.get(field);
    if (known !== undefined) return known;
    const variable = this.compiled.find((v) => v.name === field);
    if (variable === undefined) return undefined;
    const value = this.run(variable.expression);
    this.values.set(field, value);
    return value;
  }
  *fieldNames(): IterableIterator<string> {
    for (const v of this.compiled) yield v.name;
  }
}
