// String functions: `s.contains(t)`, `s.startsWith(t)`, `s.endsWith(t)` and `matches` (RE2, as a
// member `s.matches(re)` and a global `matches(s, re)`), with cel-go's overload ids and costs.

import { BoolType, StringType } from "../../common/cel-types.js";
import type { FunctionDecl, OverloadImpl } from "../../common/decls.js";
import { declareFunction, globalOverload, memberOverload } from "./declare.js";
import { noSuchOverload } from "./overload-errors.js";
import { regexMatches } from "./regex.js";
import { affixCost, containsCost, matchesCost } from "./standard-cost.js";

function strings(test: (s: string, t: string) => boolean | ReturnType<typeof regexMatches>): OverloadImpl {
  return (args) => {
    const s = args[0];
    const t = args[1];
    return typeof s === "string" && typeof t === "string" ? test(s, t) : noSuchOverload();
  };
}

const matches = strings(regexMatches);

export const stringFunctions: readonly FunctionDecl[] = [
  declareFunction(
    "contains",
    memberOverload(
      "contains_string",
      [StringType, StringType],
      BoolType,
      strings((s, t) => s.includes(t)),
      containsCost,
    ),
  ),
  declareFunction(
    "endsWith",
    memberOverload(
      "ends_with_string",
      [StringType, StringType],
      BoolType,
      strings((s, t) => s.endsWith(t)),
      affixCost,
    ),
  ),
  declareFunction(
    "startsWith",
    memberOverload(
      "starts_with_string",
      [StringType, StringType],
      BoolType,
      strings((s, t) => s.startsWith(t)),
      affixCost,
    ),
  ),
  declareFunction(
    "matches",
    // cel-go prices only the receiver form by the regex formula; the global form costs 1.
    globalOverload("matches", [StringType, StringType], BoolType, matches),
    memberOverload("matches_string", [StringType, StringType], BoolType, matches, matchesCost),
  ),
];
