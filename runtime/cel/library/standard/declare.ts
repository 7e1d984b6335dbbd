// Small builders for the standard library's declarations: a function with its overloads, global or
// receiver-style overloads, and the type parameters of generic ones.

import type { CelType } from "../../common/cel-types.js";
import type { FunctionDecl, OverloadCost, OverloadDecl, OverloadImpl } from "../../common/decls.js";

export function declareFunction(name: string, ...overloads: OverloadDecl[]): FunctionDecl {
  return { name, overloads };
}

/** A function whose implementation sees error arguments (the logical operators). */
export function declareNonStrictFunction(name: string, ...overloads: OverloadDecl[]): FunctionDecl {
  return { name, overloads, nonStrict: true };
}

type OverloadBuilder = (
  id: string,
  params: readonly CelType[],
  result: CelType,
  impl?: OverloadImpl,
  cost?: OverloadCost,
) => OverloadDecl;

function overloads(member: boolean): OverloadBuilder {
  return (id, params, result, impl, cost) => ({
    id,
    member,
    params,
    result,
    ...(impl ? { impl } : {}),
    ...(cost ? { cost } : {}),
  });
}

export const globalOverload = overloads(false);

/** A receiver-style overload: params[0] is the receiver. */
export const memberOverload = overloads(true);

/** An overload generic in the named type parameters (`A` in `list(A) + list(A)`). */
export function generic(typeParams: readonly string[], overload: OverloadDecl): OverloadDecl {
  return { ...overload, typeParams };
}
