// Declarations an environment is built from: variables, functions with typed overloads and their
// implementations, macros and the libraries that bundle them. Overload ids follow cel-go's
// (`add_int64`, `size_string`, `string_to_int64`, …) so checked ASTs and cost tables line up.
import type { CallExpr, CheckedAst, Expr } from "./ast.js";
import type { CelType } from "./cel-types.js";
import type { CelIssue } from "./issues.js";
import type { CelValue } from "./values.js";

export interface VariableDecl {
  readonly name: string;
  readonly type: CelType;
}

/** What the interpreter passes to an implementation besides its arguments. */
export interface CallContext {
  /** Adds run-time cost (for example per character scanned) to the program's tracker. */
  addCost(cost: number): void;
}

/**
 * An implementation receives already-evaluated arguments (receiver first for member calls). Unless the
 * function is nonStrict, an argument that is an error never reaches it: the interpreter returns the error.
 * It returns a CelError for a run-time failure and never throws for bad input.
 */
export type OverloadImpl = (args: readonly CelValue[], ctx: CallContext) => CelValue;

/** Size bounds used by cost estimation: the minimum and maximum size of a value (length, items, entries). */
export interface SizeEstimate {
  readonly min: number;
  readonly max: number;
}

export interface CostEstimate {
  readonly min: number;
  readonly max: number;
}

export interface OverloadCost {
  /** Static worst case from the argument size estimates (receiver first); undefined means the default cost 1. */
  estimate?(args: readonly (SizeEstimate | undefined)[], result?: SizeEstimate): CostEstimate | undefined;
  /** Size estimate of the result, for calls whose result size depends on the arguments (e.g. `+` on strings). */
  resultSize?(args: readonly (SizeEstimate | undefined)[]): SizeEstimate | undefined;
  /** Actual cost of one call, given the evaluated arguments and result; undefined means 1. */
  actual?(args: readonly CelValue[], result: CelValue): number | undefined;
}

export interface OverloadDecl {
  /** cel-go's overload id, unique across the environment. */
  readonly id: string;
  /** A receiver-style call (`"a".size()`); the receiver is params[0]. */
  readonly member: boolean;
  readonly params: readonly CelType[];
  readonly result: CelType;
  /** Names of the type parameters used in params and result (`A`, `B`). */
  readonly typeParams?: readonly string[];
  readonly impl?: OverloadImpl;
  readonly cost?: OverloadCost;
  /** The implementation checks its own arguments (cel-go's flatten accepts `[1, [2]]`): no run-time type guard. */
  readonly disableTypeGuards?: boolean;
}

export interface FunctionDecl {
  readonly name: string;
  readonly overloads: readonly OverloadDecl[];
  /** The function sees error arguments (e.g. `@not_strictly_false`). */
  readonly nonStrict?: boolean;
}

/** Builds expressions for a macro's expansion with fresh ids. */
export interface MacroHelper {
  nextId(): number;
  ident(name: string): Expr;
  literal(value: import("./ast.js").ConstantValue): Expr;
  call(fn: string, ...args: Expr[]): Expr;
  memberCall(fn: string, target: Expr, ...args: Expr[]): Expr;
  select(operand: Expr, field: string): Expr;
  presenceTest(operand: Expr, field: string): Expr;
  list(...elements: Expr[]): Expr;
  map(...entries: { key: Expr; value: Expr; optional?: boolean }[]): Expr;
  /** A copy of an expression with fresh ids at the original positions (cel-go's Copy). */
  copy(expr: Expr): Expr;
  /** The accumulator identifier (`@result`). */
  accuIdent(): Expr;
  fold(
    iterVar: string,
    iterRange: Expr,
    accuVar: string,
    accuInit: Expr,
    condition: Expr,
    step: Expr,
    result: Expr,
    iterVar2?: string,
  ): Expr;
  /** The accumulator variable name cel-go uses (`@result`). */
  readonly accuName: string;
}

/** A parse error raised by a macro expander, reported at the given expression. */
export class MacroError extends Error {
  constructor(
    message: string,
    readonly at: Expr,
  ) {
    super(message);
  }
}

export interface MacroDecl {
  readonly name: string;
  /** Number of arguments (not counting the receiver); undefined for variadic. */
  readonly argCount?: number;
  readonly member: boolean;
  /** Returns the expansion, or undefined to leave the call as written. Throws MacroError for misuse. */
  expand(helper: MacroHelper, target: Expr | undefined, args: readonly Expr[], call: CallExpr): Expr | undefined;
}

/** A bundle of declarations an environment can include (the standard library, `strings`, Kubernetes' `quantity`, …). */
export interface CelLibrary {
  readonly name: string;
  readonly functions?: readonly FunctionDecl[];
  readonly macros?: readonly MacroDecl[];
  readonly variables?: readonly VariableDecl[];
  /** Types usable by name in expressions (`type(x) == kubernetes.Quantity` is not allowed, but `optional_type` is). */
  readonly types?: readonly CelType[];
  /** Types named by a pattern rather than listed (cel-go's type provider resolving `Object.spec` on demand). */
  readonly resolveType?: (name: string) => CelType | undefined;
  /** Checks run on every checked tree after type checking (cel-go's AST validators), e.g. literal format strings. */
  readonly validators?: readonly ((ast: CheckedAst) => readonly CelIssue[])[];
  /** Parser features the library needs. */
  readonly parserOptions?: { readonly enableOptionalSyntax?: boolean };
}

/** Macros are looked up by name, receiver style and argument count, as cel-go keys them. */
export function macroKey(name: string, member: boolean, argCount: number | undefined): string {
  return `${name}:${argCount ?? "*"}:${member}`;
}
