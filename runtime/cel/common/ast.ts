// The expression tree the parser builds and the checker and planner read. It mirrors cel-go's
// (google.api.expr Expr): macros are already expanded into comprehensions, `a.?b` is the call
// `_?._(a, "b")` and `a[?b]` the call `_[?_](a, b)`, so debug strings compare with cel-go's.
import type { CelType } from "./cel-types.js";
import type { CelUint } from "./values.js";

/** A literal: null, bool, int (bigint), uint, double (number), string or bytes. */
export type ConstantValue = null | boolean | bigint | CelUint | number | string | Uint8Array;

export type Expr = ConstExpr | IdentExpr | SelectExpr | CallExpr | ListExpr | MapExpr | StructExpr | ComprehensionExpr;

export interface ConstExpr {
  readonly kind: "const";
  readonly id: number;
  readonly value: ConstantValue;
}

export interface IdentExpr {
  readonly kind: "ident";
  readonly id: number;
  readonly name: string;
}

/** `operand.field`, or `has(operand.field)` when testOnly. */
export interface SelectExpr {
  readonly kind: "select";
  readonly id: number;
  readonly operand: Expr;
  readonly field: string;
  readonly testOnly: boolean;
}

/** A function call; `target` is the receiver of a member call (`a.f(b)`). Operators are calls too (`_+_`). */
export interface CallExpr {
  readonly kind: "call";
  readonly id: number;
  readonly target?: Expr;
  readonly function: string;
  readonly args: readonly Expr[];
}

/** `[a, ?b]`: optionalIndices lists the positions written with `?`. */
export interface ListExpr {
  readonly kind: "list";
  readonly id: number;
  readonly elements: readonly Expr[];
  readonly optionalIndices: readonly number[];
}

export interface MapEntry {
  readonly id: number;
  readonly key: Expr;
  readonly value: Expr;
  readonly optional: boolean;
}

export interface MapExpr {
  readonly kind: "map";
  readonly id: number;
  readonly entries: readonly MapEntry[];
}

export interface StructField {
  readonly id: number;
  readonly field: string;
  readonly value: Expr;
  readonly optional: boolean;
}

/** `Name{field: value}`: a message (object type) literal. */
export interface StructExpr {
  readonly kind: "struct";
  readonly id: number;
  readonly messageName: string;
  readonly fields: readonly StructField[];
}

/** The fold every macro expands to, as in cel-go; iterVar2 is set by two-variable macros. */
export interface ComprehensionExpr {
  readonly kind: "comprehension";
  readonly id: number;
  readonly iterVar: string;
  readonly iterVar2?: string;
  readonly iterRange: Expr;
  readonly accuVar: string;
  readonly accuInit: Expr;
  readonly loopCondition: Expr;
  readonly loopStep: Expr;
  readonly result: Expr;
}

/** Where each node came from in the source, for error messages and cost. */
export interface SourceInfo {
  /** The expression text. */
  readonly source: string;
  /** Code-point offset of each expression id in the source. */
  readonly positions: Map<number, number>;
  /** The call each macro-expanded node replaced, by the expanded node's id. */
  readonly macroCalls: Map<number, Expr>;
}

export interface ParsedAst {
  readonly expr: Expr;
  readonly sourceInfo: SourceInfo;
}

/** What an identifier, select chain or call resolved to in the checker. */
export interface Reference {
  /** The fully qualified name of a variable or of a type used as a value. */
  readonly name?: string;
  /** Candidate overload ids of a call, narrowed by the argument types. */
  readonly overloadIds?: readonly string[];
}

export interface CheckedAst extends ParsedAst {
  /** The checked type of every expression id. */
  readonly types: Map<number, CelType>;
  /** Resolved references by expression id (identifiers, qualified names, calls). */
  readonly references: Map<number, Reference>;
}
