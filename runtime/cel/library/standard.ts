// CEL's standard library as cel-go declares it (common/stdlib): operators, size, type conversions,
// string functions, timestamp and duration accessors, and the standard macros (has, all, exists,
// exists_one, map, filter). Every environment includes it.
import type { CelLibrary } from "../common/decls.js";
import { standardMacros } from "../parser/macros.js";
import { arithmeticFunctions } from "./standard/arithmetic.js";
import { comparisonFunctions } from "./standard/comparison.js";
import { containerFunctions } from "./standard/containers.js";
import { logicFunctions } from "./standard/standard-logic.js";
import { stringFunctions } from "./standard/standard-strings.js";
import { timeFunctions } from "./standard/time.js";
import { conversionFunctions } from "./standard/type-conversions.js";

export const standardLibrary: CelLibrary = {
  name: "cel.lib.std",
  functions: [
    ...logicFunctions,
    ...comparisonFunctions,
    ...arithmeticFunctions,
    ...containerFunctions,
    ...conversionFunctions,
    ...stringFunctions,
    ...timeFunctions,
  ],
  macros: standardMacros,
};
