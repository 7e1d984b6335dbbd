// CEL's token kinds, numbered as cel-go's ANTLR grammar numbers them, because syntax errors list
// expected tokens in that order ("expecting {'[', '{', '(', …, IDENTIFIER}"). EOF is 0 here (ANTLR: -1).

export const T = {
  EOF: 0,
  EQUALS: 1,
  NOT_EQUALS: 2,
  IN: 3,
  LESS: 4,
  LESS_EQUALS: 5,
  GREATER_EQUALS: 6,
  GREATER: 7,
  LOGICAL_AND: 8,
  LOGICAL_OR: 9,
  LBRACKET: 10,
  RBRACKET: 11,
  LBRACE: 12,
  RBRACE: 13,
  LPAREN: 14,
  RPAREN: 15,
  DOT: 16,
  COMMA: 17,
  MINUS: 18,
  EXCLAM: 19,
  QUESTIONMARK: 20,
  COLON: 21,
  PLUS: 22,
  STAR: 23,
  SLASH: 24,
  PERCENT: 25,
  TRUE: 26,
  FALSE: 27,
  NULL: 28,
  NUM_FLOAT: 31,
  NUM_INT: 32,
  NUM_UINT: 33,
  STRING: 34,
  BYTES: 35,
  IDENTIFIER: 36,
  ESC_IDENTIFIER: 37,
} as const;

/** How ANTLR names a token kind in "expecting …": the quoted literal, or the symbolic name. */
const DISPLAY_NAMES: readonly string[] = [
  "<EOF>",
  "'=='",
  "'!='",
  "'in'",
  "'<'",
  "'<='",
  "'>='",
  "'>'",
  "'&&'",
  "'||'",
  "'['",
  "']'",
  "'{'",
  "'}'",
  "'('",
  "')'",
  "'.'",
  "','",
  "'-'",
  "'!'",
  "'?'",
  "':'",
  "'+'",
  "'*'",
  "'/'",
  "'%'",
  "'true'",
  "'false'",
  "'null'",
  "WHITESPACE",
  "COMMENT",
  "NUM_FLOAT",
  "NUM_INT",
  "NUM_UINT",
  "STRING",
  "BYTES",
  "IDENTIFIER",
  "ESC_IDENTIFIER",
];

/** A token: its kind and code-point range [start, end) in the source. */
export interface Token {
  readonly type: number;
  readonly start: number;
  readonly end: number;
}

/** An immutable set of token kinds (kinds 0..37 fit in two 32-bit masks). */
export class TokenSet {
  private constructor(
    private readonly lo: number,
    private readonly hi: number,
  ) {}

  static of(...types: number[]): TokenSet {
    let lo = 0;
    let hi = 0;
    for (const t of types) {
      if (t < 32) lo |= 1 << t;
      else hi |= 1 << (t - 32);
    }
    return new TokenSet(lo, hi);
  }

  has(type: number): boolean {
    return type < 32 ? ((this.lo >>> type) & 1) === 1 : ((this.hi >>> (type - 32)) & 1) === 1;
  }

  union(other: TokenSet): TokenSet {
    return new TokenSet(this.lo | other.lo, this.hi | other.hi);
  }

  /** ANTLR's IntervalSet display: `'x'` for one kind, `{'x', 'y'}` for several, in kind order. */
  toString(): string {
    const names: string[] = [];
    for (let t = 0; t < DISPLAY_NAMES.length; t++) if (this.has(t)) names.push(DISPLAY_NAMES[t] as string);
    return names.length === 1 ? (names[0] as string) : `{${names.join(", ")}}`;
  }
}

export const NO_TOKENS = TokenSet.of();

/** Tokens that can start a `primary` (and a `member`): a literal may start with its sign. */
export const FIRST_PRIMARY = TokenSet.of(
  T.LBRACKET,
  T.LBRACE,
  T.LPAREN,
  T.DOT,
  T.MINUS,
  T.TRUE,
  T.FALSE,
  T.NULL,
  T.NUM_FLOAT,
  T.NUM_INT,
  T.NUM_UINT,
  T.STRING,
  T.BYTES,
  T.IDENTIFIER,
);
/** Tokens that can start an expression (`unary` adds `!`). */
export const FIRST_EXPR = FIRST_PRIMARY.union(TokenSet.of(T.EXCLAM));
/** An optional list element or map key: `?` then an expression. */
export const FIRST_OPT_EXPR = FIRST_EXPR.union(TokenSet.of(T.QUESTIONMARK));
/** A field name in a message literal or after `.`. */
export const FIELD_NAMES = TokenSet.of(T.IDENTIFIER, T.ESC_IDENTIFIER);
export const FIRST_OPT_FIELD = FIELD_NAMES.union(TokenSet.of(T.QUESTIONMARK));
export const RELATION_OPS = TokenSet.of(
  T.EQUALS,
  T.NOT_EQUALS,
  T.IN,
  T.LESS,
  T.LESS_EQUALS,
  T.GREATER_EQUALS,
  T.GREATER,
);
export const MULTIPLICATIVE_OPS = TokenSet.of(T.STAR, T.SLASH, T.PERCENT);
export const ADDITIVE_OPS = TokenSet.of(T.PLUS, T.MINUS);

/** cel-go's function name for each operator token. */
export const OPERATOR_FUNCTIONS: ReadonlyMap<number, string> = new Map([
  [T.EQUALS, "_==_"],
  [T.NOT_EQUALS, "_!=_"],
  [T.IN, "@in"],
  [T.LESS, "_<_"],
  [T.LESS_EQUALS, "_<=_"],
  [T.GREATER_EQUALS, "_>=_"],
  [T.GREATER, "_>_"],
  [T.PLUS, "_+_"],
  [T.MINUS, "_-_"],
  [T.STAR, "_*_"],
  [T.SLASH, "_/_"],
  [T.PERCENT, "_%_"],
]);
