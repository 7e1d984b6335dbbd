// cel-go's literal validators (cel/validator.go), run on a checked tree, as Kubernetes' base
// environment enables them from 1.29: a literal argument of `duration(…)` or `timestamp(…)` that fails
// to convert, or a literal pattern of `matches` that is not RE2, is a compile error ("invalid duration
// argument"); list and map literals must be homogeneous ("expected type 'int' but found 'string'"),
// except inside calls the string extensions exempt (`format`).
import type { CallExpr, CheckedAst, Expr } from "../common/ast.js";
import { type CelType, DynType, formatType, sameType } from "../common/cel-types.js";
import type { CelLibrary } from "../common/decls.js";
import type { CelIssue } from "../common/issues.js";
import { CelError, isError } from "../common/values.js";
import { CelEnv } from "../env.js";
import { compileRegex } from "../library/standard/regex.js";
import { standardLibrary } from "../library/standard.js";

type Visitor = (e: Expr, ancestors: readonly Expr[]) => void;

/** Every node below and including `e`, with its ancestors (outermost first), as cel-go's MatchDescendants sees them. */
function walk(e: Expr, visit: Visitor, ancestors: Expr[] = []): void {
  visit(e, ancestors);
  ancestors.push(e);
  for (const child of children(e)) walk(child, visit, ancestors);
  ancestors.pop();
}

function children(e: Expr): readonly Expr[] {
  switch (e.kind) {
    case "select":
      return [e.operand];
    case "call":
      return e.target === undefined ? e.args : [e.target, ...e.args];
    case "list":
      return e.elements;
    case "map":
      return e.entries.flatMap((entry) => [entry.key, entry.value]);
    case "struct":
      return e.fields.map((field) => field.value);
    case "comprehension":
      return [e.iterRange, e.accuInit, e.loopCondition, e.loopStep, e.result];
    default:
      return [];
  }
}

function issueAt(ast: CheckedAst, exprId: number, message: string): CelIssue {
  return { message, offset: ast.sourceInfo.positions.get(exprId) ?? -1, exprId };
}

/**
 * A validator of the literal first (non-receiver) argument of every call to `fn`: `accepts` says whether
 * the call with that literal is valid, else the literal is reported as "invalid <fn> argument".
 */
function literalArgumentValidator(fn: string, accepts: (call: CallExpr, ast: CheckedAst) => boolean) {
  return (ast: CheckedAst): CelIssue[] => {
    const issues: CelIssue[] = [];
    walk(ast.expr, (e) => {
      if (e.kind !== "call" || e.function !== fn) return;
      const literal = e.args[0];
      if (literal?.kind !== "const" || accepts(e, ast)) return;
      issues.push(issueAt(ast, literal.id, `invalid ${fn} argument`));
    });
    return issues;
  };
}

let standardEnv: CelEnv | undefined;

/** cel-go evaluates the call alone, without variables; any error makes the literal invalid. */
function evaluatesCleanly(call: CallExpr, ast: CheckedAst): boolean {
  standardEnv ??= new CelEnv({ libraries: [standardLibrary] });
  const program = standardEnv.program({ expr: call, sourceInfo: ast.sourceInfo });
  return !isError(program.eval(() => undefined).value);
}

function compilesAsRegex(call: CallExpr): boolean {
  const pattern = call.args[0];
  return (
    pattern?.kind === "const" && typeof pattern.value === "string" && !(compileRegex(pattern.value) instanceof CelError)
  );
}

/** cel.ValidateDurationLiterals. */
export const durationLiteralIssues = literalArgumentValidator("duration", evaluatesCleanly);
/** cel.ValidateTimestampLiterals. */
export const timestampLiteralIssues = literalArgumentValidator("timestamp", evaluatesCleanly);
/** cel.ValidateRegexLiterals (the pattern is the first argument after a receiver, as cel-go matches it). */
export const regexLiteralIssues = literalArgumentValidator("matches", compilesAsRegex);

function typeAt(ast: CheckedAst, id: number): CelType {
  return ast.types.get(id) ?? DynType;
}

/** The value type of an optional entry (`[?x]`, `{?k: v}`): the parameter of its optional type. */
function unwrapOptional(type: CelType): CelType {
  return type.kind === "opaque" && type.name === "optional_type" ? (type.params[0] ?? DynType) : DynType;
}

function mismatch(ast: CheckedAst, id: number, expected: CelType, actual: CelType): CelIssue {
  return issueAt(ast, id, `expected type '${formatType(expected)}' but found '${formatType(actual)}'`);
}

/**
 * cel.ValidateHomogeneousAggregateLiterals: a list literal's elements, a map literal's keys and its values
 * must each have one type. A list reports its first odd element only; a map every odd key and value.
 */
export function homogeneousAggregateIssues(exemptFunctions: readonly string[] = []) {
  const exempt = (ancestors: readonly Expr[]) =>
    ancestors.some((a) => a.kind === "call" && exemptFunctions.includes(a.function));
  return (ast: CheckedAst): CelIssue[] => {
    const issues: CelIssue[] = [];
    walk(ast.expr, (e, ancestors) => {
      if (e.kind === "list" && !exempt(ancestors)) {
        let first: CelType | undefined;
        for (const [i, element] of e.elements.entries()) {
          let type = typeAt(ast, element.id);
          if (e.optionalIndices.includes(i)) type = unwrapOptional(type);
          if (first === undefined) first = type;
          else if (!sameType(first, type)) {
            issues.push(mismatch(ast, element.id, first, type));
            break;
          }
        }
      } else if (e.kind === "map" && !exempt(ancestors)) {
        let first: { key: CelType; value: CelType } | undefined;
        for (const entry of e.entries) {
          const key = typeAt(ast, entry.key.id);
          let value = typeAt(ast, entry.value.id);
          if (entry.optional) value = unwrapOptional(value);
          if (first === undefined) {
            first = { key, value };
            continue;
          }
          if (!sameType(first.key, key)) issues.push(mismatch(ast, entry.key.id, first.key, key));
          if (!sameType(first.value, value)) issues.push(mismatch(ast, entry.value.id, first.value, value));
        }
      }
    });
    return issues;
  };
}

/**
 * cel-go's extended validations as Kubernetes' base environment configures them; `format` is exempt
 * from the homogeneity check because the string extensions (version ≥ 1) exempt it.
 */
export const literalValidatorsLibrary: CelLibrary = {
  name: "cel.validators.literals",
  validators: [
    durationLiteralIssues,
    timestampLiteralIssues,
    regexLiteralIssues,
    homogeneousAggregateIssues(["format"]),
  ],
};
