// Calls a library overload's implementation directly, by cel-go overload id.
import type { CelLibrary, OverloadDecl } from "../../../../../runtime/cel/common/decls.js";
import type { CelValue } from "../../../../../runtime/cel/common/values.js";

export function overload(library: CelLibrary, id: string): OverloadDecl {
  for (const fn of library.functions ?? []) {
    const found = fn.overloads.find((o) => o.id === id);
    if (found) return found;
  }
  throw new Error(`no overload ${id} in ${library.name}`);
}

export function call(library: CelLibrary, id: string, ...args: CelValue[]): CelValue {
  const impl = overload(library, id).impl;
  if (!impl) throw new Error(`overload ${id} has no implementation`);
  return impl(args, { addCost: () => {} });
}
