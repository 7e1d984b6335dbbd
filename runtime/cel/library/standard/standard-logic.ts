// Logical operators. The interpreter evaluates `&&`, `||` and `?:` lazily itself; the implementations
// here give the same results for already-evaluated operands (CEL's commutative rules: `false && error`
// is false, `true || error` is true, otherwise the first error, and "no such overload" for non-bools).

import { BoolType, typeParam } from "../../common/cel-types.js";
import type { FunctionDecl, OverloadImpl } from "../../common/decls.js";
import { CelError, type CelValue } from "../../common/values.js";
import { declareFunction, declareNonStrictFunction, generic, globalOverload } from "./declare.js";
import { noSuchOverload } from "./overload-errors.js";
import { conditionalCost } from "./standard-cost.js";

/** `&&` absorbs with false, `||` with true. */
function logical(absorbing: boolean): OverloadImpl {
  return (args) => {
    const a = args[0] as CelValue;
    const b = args[1] as CelValue;
    if (a === absorbing || b === absorbing) return absorbing;
    if (typeof a === "boolean" && typeof b === "boolean") return !absorbing;
    if (a instanceof CelError) return a;
    if (b instanceof CelError) return b;
    return noSuchOverload();
  };
}

const conditional: OverloadImpl = (args) => {
  const condition = args[0] as CelValue;
  if (condition === true) return args[1] as CelValue;
  if (condition === false) return args[2] as CelValue;
  return condition instanceof CelError ? condition : noSuchOverload();
};

const A = typeParam("A");

export const logicFunctions: readonly FunctionDecl[] = [
  declareNonStrictFunction(
    "_?_:_",
    generic(["A"], globalOverload("conditional", [BoolType, A, A], A, conditional, conditionalCost)),
  ),
  declareNonStrictFunction("_&&_", globalOverload("logical_and", [BoolType, BoolType], BoolType, logical(false))),
  declareNonStrictFunction("_||_", globalOverload("logical_or", [BoolType, BoolType], BoolType, logical(true))),
  declareFunction(
    "!_",
    globalOverload("logical_not", [BoolType], BoolType, (args) => {
      const v = args[0];
      return typeof v === "boolean" ? !v : noSuchOverload();
    }),
  ),
  // Comprehension loop conditions: an error or non-bool does not stop the loop early.
  declareNonStrictFunction(
    "@not_strictly_false",
    globalOverload("not_strictly_false", [BoolType], BoolType, (args) => {
      const v = args[0];
      return typeof v === "boolean" ? v : true;
    }),
  ),
];
