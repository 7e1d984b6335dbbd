// Evaluates expressions end to end (parse → check → plan → eval) in an environment of the given
// libraries, for the library table tests: the result value, or the compile issues as cel-go prints them.
import { expect, it } from "vitest";
import type { CelLibrary } from "../../../../runtime/cel/common/decls.js";
import { CelIssues } from "../../../../runtime/cel/common/issues.js";
import type { CelValue } from "../../../../runtime/cel/common/values.js";
import { CelEnv } from "../../../../runtime/cel/env.js";
import { optionalsLibrary } from "../../../../runtime/cel/library/optionals.js";
import { standardLibrary } from "../../../../runtime/cel/library/standard.js";

export interface Evaluation {
  readonly value: CelValue;
  readonly cost: number;
}

/** An evaluator over the standard library, optional values and `libraries`; compile issues come back as text. */
export function evaluator(...libraries: CelLibrary[]): (expr: string) => Evaluation | string {
  const env = new CelEnv({ libraries: [standardLibrary, optionalsLibrary, ...libraries] });
  return (expr) => {
    const ast = env.compile(expr);
    if (ast instanceof CelIssues) return ast.toDisplayString();
    return env.program(ast).eval(() => undefined);
  };
}

/** A test per expression, each of which must evaluate to true. */
export function itHolds(evaluate: (expr: string) => Evaluation | string, exprs: readonly string[]): void {
  for (const expr of exprs) {
    it(expr, () => {
      expect(evaluate(expr)).toMatchObject({ value: true });
    });
  }
}
