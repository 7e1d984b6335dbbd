// CEL's parser: source text → ParsedAst (macros expanded) or the issues found, worded and positioned
// as cel-go reports them. Lexer and grammar build a syntax tree (syntax errors), then the builder
// produces the expression tree (semantic errors such as reserved identifiers or misused macros).
// Defaults are cel-go's, as Kubernetes uses them.
import type { ParsedAst } from "../common/ast.js";
import type { MacroDecl } from "../common/decls.js";
import { type CelIssue, CelIssues } from "../common/issues.js";
import { ExprBuilder, NestingTooDeep } from "./builder.js";
import { parseSyntax } from "./grammar.js";
import { lex, SourceText } from "./lexer.js";

export interface ParseOptions {
  /** Macros by macroKey(name, member, argCount); a variadic macro has argCount undefined. */
  readonly macros: ReadonlyMap<string, MacroDecl>;
  /** `a.?b`, `a[?b]`, `[?a]`, `{?k: v}`, `Msg{?f: v}`. */
  readonly enableOptionalSyntax: boolean;
  /** Backquoted field names: a.`b-c`. */
  readonly enableIdentEscapeSyntax?: boolean;
  /** Default 250. */
  readonly maxRecursionDepth?: number;
  /** Default 30. */
  readonly errorRecoveryLimit?: number;
  /** Default 256. */
  readonly errorRecoveryLookaheadTokenLimit?: number;
  /** Default 100. */
  readonly errorReportingLimit?: number;
  /** Default 100000. */
  readonly expressionSizeCodePointLimit?: number;
  /** Printed in place of a file name in errors; default `<input>`. */
  readonly description?: string;
}

export function parse(source: string, options: ParseOptions): ParsedAst | CelIssues {
  const text = new SourceText(source);
  const description = options.description ?? "<input>";
  const sizeLimit = options.expressionSizeCodePointLimit ?? 100_000;
  if (text.length > sizeLimit) {
    const message = `expression code point size exceeds limit: size: ${text.length}, limit ${sizeLimit}`;
    return new CelIssues(source, [{ message, offset: -1 }], description);
  }
  const maxRecursionDepth = options.maxRecursionDepth ?? 250;
  const syntax = parseSyntax(text, lex(text), {
    maxRecursionDepth,
    errorRecoveryLimit: options.errorRecoveryLimit ?? 30,
    errorRecoveryLookaheadTokenLimit: options.errorRecoveryLookaheadTokenLimit ?? 256,
    errorReportingLimit: options.errorReportingLimit ?? 100,
  });
  const issues: CelIssue[] = [...syntax.issues];
  if (syntax.aborted) return new CelIssues(source, sortIssues(issues), description);
  const builder = new ExprBuilder(text, {
    macros: options.macros,
    enableOptionalSyntax: options.enableOptionalSyntax,
    enableIdentEscapeSyntax: options.enableIdentEscapeSyntax === true,
    maxRecursionDepth,
  });
  let expr: ParsedAst["expr"] | undefined;
  try {
    expr = builder.build(syntax.root);
  } catch (e) {
    if (!(e instanceof NestingTooDeep)) throw e;
  }
  issues.push(...builder.issues);
  if (expr === undefined) issues.push({ message: "max recursion depth exceeded", offset: -1 });
  if (issues.length > 0 || expr === undefined) return new CelIssues(source, sortIssues(issues), description);
  return { expr, sourceInfo: { source, positions: builder.positions, macroCalls: builder.macroCalls } };
}

/** cel-go lists errors by position (stable), those without a position first. */
function sortIssues(issues: CelIssue[]): CelIssue[] {
  return issues.sort((a, b) => a.offset - b.offset);
}
