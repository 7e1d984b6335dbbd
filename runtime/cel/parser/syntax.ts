// The concrete syntax tree the grammar produces and the builder turns into an Expr: it keeps the
// tokens (positions of operators, names, literals) in the shape of cel-go's ANTLR parse tree, so the
// builder can assign expression ids in the order cel-go's visitor does. Parentheses leave no node.
import type { Token } from "./tokens.js";

export type Syntax =
  | ErrorSyntax
  | TernarySyntax
  | LogicalSyntax
  | BinarySyntax
  | UnarySyntax
  | SelectSyntax
  | MemberCallSyntax
  | IndexSyntax
  | IdentSyntax
  | CallSyntax
  | ListSyntax
  | MapSyntax
  | MessageSyntax
  | LiteralSyntax;

/** What error recovery leaves where a construct could not be parsed. */
export interface ErrorSyntax {
  readonly k: "error";
  /** Start of the text the construct covered, for the position of the placeholder. */
  readonly at: number;
}

export interface TernarySyntax {
  readonly k: "ternary";
  readonly cond: Syntax;
  readonly op: Token;
  readonly then: Syntax;
  readonly otherwise: Syntax;
}

/** A chain of `||` (or `&&`) terms; the builder balances it as cel-go does. */
export interface LogicalSyntax {
  readonly k: "logical";
  readonly fn: string;
  readonly terms: readonly Syntax[];
  readonly ops: readonly Token[];
}

/** A relation or arithmetic operator. */
export interface BinarySyntax {
  readonly k: "binary";
  readonly fn: string;
  readonly op: Token;
  readonly lhs: Syntax;
  readonly rhs: Syntax;
}

/** `!`… or `-`… applied to an operand; an even count cancels out. */
export interface UnarySyntax {
  readonly k: "unary";
  readonly fn: string;
  readonly ops: readonly Token[];
  readonly operand: Syntax;
}

export interface SelectSyntax {
  readonly k: "select";
  readonly operand: Syntax;
  readonly dot: Token;
  /** The `?` of `.?field`. */
  readonly opt: Token | undefined;
  /** IDENTIFIER or ESC_IDENTIFIER; missing after a syntax error. */
  readonly field: Token | undefined;
}

export interface MemberCallSyntax {
  readonly k: "memberCall";
  readonly operand: Syntax;
  readonly name: Token;
  readonly open: Token;
  readonly args: readonly Syntax[];
}

export interface IndexSyntax {
  readonly k: "index";
  readonly operand: Syntax;
  readonly open: Token;
  /** The `?` of `[?index]`. */
  readonly opt: Token | undefined;
  readonly index: Syntax;
}

export interface IdentSyntax {
  readonly k: "ident";
  readonly leadingDot: Token | undefined;
  readonly name: Token;
}

export interface CallSyntax {
  readonly k: "call";
  readonly leadingDot: Token | undefined;
  readonly name: Token;
  readonly open: Token;
  readonly args: readonly Syntax[];
}

export interface ListSyntax {
  readonly k: "list";
  readonly open: Token;
  readonly elements: readonly { readonly opt: Token | undefined; readonly value: Syntax }[];
}

export interface MapEntrySyntax {
  readonly opt: Token | undefined;
  readonly key: Syntax;
  readonly colon: Token;
  readonly value: Syntax;
}

export interface MapSyntax {
  readonly k: "map";
  readonly open: Token;
  readonly entries: readonly MapEntrySyntax[];
}

/** A message field; after a syntax error any part may be missing. */
export interface FieldSyntax {
  readonly opt: Token | undefined;
  /** IDENTIFIER or ESC_IDENTIFIER. */
  readonly name: Token | undefined;
  readonly colon: Token | undefined;
  readonly value: Syntax | undefined;
}

export interface MessageSyntax {
  readonly k: "message";
  readonly leadingDot: Token | undefined;
  readonly names: readonly Token[];
  readonly open: Token;
  readonly fields: readonly FieldSyntax[];
}

export interface LiteralSyntax {
  readonly k: "literal";
  /** The `-` of a negative int or double literal. */
  readonly sign: Token | undefined;
  readonly token: Token;
}
