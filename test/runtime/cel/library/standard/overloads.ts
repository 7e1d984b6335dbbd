// Direct calls of standard-library overloads by cel-go overload id, for table tests.
import type { FunctionDecl, OverloadDecl } from "../../../../../runtime/cel/common/decls.js";
import { CelError, type CelValue } from "../../../../../runtime/cel/common/values.js";
import { standardLibrary } from "../../../../../runtime/cel/library/standard.js";

export const standardFunctions: readonly FunctionDecl[] = standardLibrary.functions ?? [];

export function overload(id: string): OverloadDecl {
  for (const fn of standardFunctions) {
    for (const o of fn.overloads) if (o.id === id) return o;
  }
  throw new Error(`no overload ${id}`);
}

/** Calls the overload's implementation with the arguments (receiver first). */
export function call(id: string, ...args: CelValue[]): CelValue {
  const impl = overload(id).impl;
  if (!impl) throw new Error(`overload ${id} has no implementation`);
  return impl(args, { addCost: () => {} });
}

/** The message of an error result. */
export function message(v: CelValue): string {
  if (!(v instanceof CelError)) throw new Error(`expected an error, got ${String(v)}`);
  return v.message;
}
