// Shared by the parser tests: the standard macro table, the parser options cel-spec's test data was
// generated with, and cel-go's display of errors (to compare with the `error` texts in that data).
import type { ParsedAst } from "../../../../runtime/cel/common/ast.js";
import type { MacroDecl } from "../../../../runtime/cel/common/decls.js";
import { macroKey } from "../../../../runtime/cel/common/decls.js";
import { CelIssues } from "../../../../runtime/cel/common/issues.js";
import { standardMacros } from "../../../../runtime/cel/parser/macros.js";
import { type ParseOptions, parse } from "../../../../runtime/cel/parser/parser.js";

export const STANDARD_MACROS: ReadonlyMap<string, MacroDecl> = new Map(
  standardMacros.map((m) => [macroKey(m.name, m.member, m.argCount), m]),
);

/** The parser cel-spec's incremental test data was produced with (gen_incremental_tests.go). */
export const TEST_DATA_PARSER: ParseOptions = {
  macros: STANDARD_MACROS,
  enableOptionalSyntax: false,
  maxRecursionDepth: 32,
  errorRecoveryLimit: 4,
  errorRecoveryLookaheadTokenLimit: 4,
};

/** Parses with the standard macros; fails the test on errors. */
export function parseOk(source: string, options: Partial<ParseOptions> = {}): ParsedAst {
  const result = parse(source, { macros: STANDARD_MACROS, enableOptionalSyntax: false, ...options });
  if (result instanceof CelIssues) throw new Error(result.toDisplayString());
  return result;
}

/** Parses with the standard macros expecting errors, shown as cel-go shows them. */
export function parseErrors(source: string, options: Partial<ParseOptions> = {}): string {
  const result = parse(source, { macros: STANDARD_MACROS, enableOptionalSyntax: false, ...options });
  if (!(result instanceof CelIssues)) throw new Error(`${source} parsed`);
  return result.toDisplayString();
}
