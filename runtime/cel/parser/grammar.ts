// CEL's grammar as a recursive-descent parser over the tokens, producing the syntax tree. Its rules,
// decisions and error recovery mirror what ANTLR generates for cel-go's CEL.g4 (DefaultErrorStrategy
// with cel-go's recovery limits), so syntax errors read and point where cel-go's do:
// - a rule's alternatives are checked against the tokens that can start them ("sync"): one stray
//   token is skipped ("extraneous input"), otherwise "mismatched input … expecting {…}";
// - a missing token is matched by skipping one stray token, or assumed ("missing … at …");
// - "no viable alternative" when no alternative fits the lookahead;
// - after an error, tokens are skipped up to one that can follow a rule in progress, and no further
//   error is reported until a token is matched again;
// - limits: nesting of each rule (cel-go's recursion listener), recovery attempts, tokens skipped
//   per recovery and the number of syntax errors.
import type { CelIssue } from "../common/issues.js";
import type { LexResult, SourceText } from "./lexer.js";
import type { FieldSyntax, MapEntrySyntax, Syntax } from "./syntax.js";
import {
  ADDITIVE_OPS,
  FIELD_NAMES,
  FIRST_EXPR,
  FIRST_OPT_EXPR,
  FIRST_OPT_FIELD,
  FIRST_PRIMARY,
  MULTIPLICATIVE_OPS,
  NO_TOKENS,
  OPERATOR_FUNCTIONS,
  RELATION_OPS,
  T,
  type Token,
  TokenSet,
} from "./tokens.js";

export interface GrammarLimits {
  /** Deepest nesting of any one grammar rule (cel-go's MaxRecursionDepth). */
  readonly maxRecursionDepth: number;
  /** Error recoveries before giving up (cel-go's ErrorRecoveryLimit). */
  readonly errorRecoveryLimit: number;
  /** Tokens one recovery may skip (cel-go's ErrorRecoveryLookaheadTokenLimit). */
  readonly errorRecoveryLookaheadTokenLimit: number;
  /** Syntax errors reported before giving up (cel-go's ErrorReportingLimit). */
  readonly errorReportingLimit: number;
}

export interface GrammarResult {
  readonly root: Syntax;
  /** Syntax errors ("Syntax error: …") and limit errors (offset -1). */
  readonly issues: readonly CelIssue[];
  /** Parsing stopped at a limit; the tree is incomplete and must not be built. */
  readonly aborted: boolean;
}

// Rules, for the per-rule nesting count.
const R_START = 0;
const R_EXPR = 1;
const R_OR = 2;
const R_AND = 3;
const R_RELATION = 4;
const R_CALC = 5;
const R_UNARY = 6;
const R_MEMBER = 7;
const R_PRIMARY = 8;
const R_EXPR_LIST = 9;
const R_LIST_INIT = 10;
const R_FIELD_INITS = 11;
const R_OPT_FIELD = 12;
const R_MAP_INITS = 13;
const R_ESCAPE_IDENT = 14;
const R_OPT_EXPR = 15;
const R_LITERAL = 16;
const RULE_COUNT = 17;

/** What may follow a rule where it is used; `eps` when the enclosing rule may end there too. */
interface Follow {
  readonly set: TokenSet;
  readonly eps: boolean;
}

const follow = (eps: boolean, ...types: number[]): Follow => ({ set: TokenSet.of(...types), eps });
const F_EOF = follow(false, T.EOF);
const F_END = follow(true);
const F_QUESTION = follow(true, T.QUESTIONMARK);
const F_COLON = follow(false, T.COLON);
const F_OR = follow(true, T.LOGICAL_OR);
const F_AND = follow(true, T.LOGICAL_AND);
const F_RELATION: Follow = { set: RELATION_OPS, eps: true };
const F_CALC: Follow = { set: MULTIPLICATIVE_OPS.union(ADDITIVE_OPS), eps: true };
const F_MEMBER = follow(true, T.DOT, T.LBRACKET);
const F_RPAREN = follow(false, T.RPAREN);
const F_RBRACKET = follow(false, T.RBRACKET);
const F_COMMA = follow(true, T.COMMA);
const F_COMMA_RBRACKET = follow(false, T.COMMA, T.RBRACKET);
const F_COMMA_RBRACE = follow(false, T.COMMA, T.RBRACE);
/** What follows the token a `match` expects, to decide whether the token can be assumed missing. */
const AFTER_NOTHING: Follow = { set: NO_TOKENS, eps: false };
const AFTER_COLON: Follow = { set: FIRST_EXPR, eps: false };

const ARGS_OR_CLOSE = FIRST_EXPR.union(TokenSet.of(T.RPAREN));
const LIST_BODY = FIRST_OPT_EXPR.union(TokenSet.of(T.COMMA, T.RBRACKET));
const LIST_END = TokenSet.of(T.COMMA, T.RBRACKET);
const MAP_BODY = FIRST_OPT_EXPR.union(TokenSet.of(T.COMMA, T.RBRACE));
const BRACE_END = TokenSet.of(T.COMMA, T.RBRACE);
const MESSAGE_BODY = FIRST_OPT_FIELD.union(BRACE_END);

/** cel-go rewrites this ANTLR message so a keyword used as a field reads as before. */
const RESERVED_FIELD = /no viable alternative at input '.(true|false|null)'/g;

/** A recognition error ANTLR would raise; caught by the rule in progress, which then recovers. */
class RecognitionError {
  constructor(
    readonly kind: "mismatch" | "noViable",
    /** Token index of the offending token. */
    readonly offending: number,
    /** Where the failed decision started (no viable alternative). */
    readonly start: number,
    readonly expected: TokenSet,
    /** The grammar position, so a second error at the same token and place skips a token. */
    readonly state: number,
  ) {}
}

/** Parsing stops (a limit was reached); `internal` is reported without a position. */
class Abort {
  constructor(readonly internal?: string) {}
}

const isNumber = (type: number): boolean => type === T.NUM_INT || type === T.NUM_FLOAT;

export function parseSyntax(source: SourceText, lexed: LexResult, limits: GrammarLimits): GrammarResult {
  return new Grammar(source, lexed, limits).run();
}

class Grammar {
  private readonly tokens: readonly Token[];
  private readonly last: number;
  private p = 0;
  /** Highest token index looked at: lexer errors are reported once the parser reaches them. */
  private fetched = -1;
  private lexErrorsReported = 0;
  private errorMode = false;
  private lastErrorIndex = -1;
  private lastErrorStates: number[] = [];
  private attempts = 0;
  private skippedInRecovery = 0;
  private reports = 0;
  private readonly follows: Follow[] = [];
  private readonly depth: number[] = new Array(RULE_COUNT).fill(0);
  private readonly issues: CelIssue[] = [];

  constructor(
    private readonly source: SourceText,
    private readonly lexed: LexResult,
    private readonly limits: GrammarLimits,
  ) {
    this.tokens = lexed.tokens;
    this.last = lexed.tokens.length - 1;
  }

  run(): GrammarResult {
    try {
      const root = this.start();
      return { root, issues: this.issues, aborted: false };
    } catch (e) {
      if (!(e instanceof Abort)) throw e;
      if (e.internal !== undefined) this.issues.push({ message: e.internal, offset: -1 });
      return { root: { k: "error", at: 0 }, issues: this.issues, aborted: true };
    }
  }

  // ---- token stream

  private fetch(i: number): void {
    this.fetched = i;
    const errors = this.lexed.errors;
    while (this.lexErrorsReported < errors.length) {
      const error = errors[this.lexErrorsReported] as (typeof errors)[number];
      if (error.beforeToken > i) break;
      this.lexErrorsReported++;
      this.syntaxError(error.offset, `token recognition error at: '${error.text}'`);
    }
  }

  private lt(k: number): Token {
    const i = Math.min(this.p + k - 1, this.last);
    if (i > this.fetched) this.fetch(i);
    return this.tokens[i] as Token;
  }

  private la(k: number): number {
    return this.lt(k).type;
  }

  private consume(): Token {
    const token = this.lt(1);
    if (token.type !== T.EOF) {
      this.p++;
      this.lt(1);
    }
    return token;
  }

  /** Matches a token the decision already chose. */
  private take(): Token {
    this.endErrorCondition();
    return this.consume();
  }

  private match(type: number, state: number, after: Follow): Token {
    return this.la(1) === type ? this.take() : this.recoverInline(type, state, after);
  }

  // ---- rule nesting

  /** Enters a rule used where `follow` may come after it (ANTLR's invoking state). */
  private enter(rule: number, follow: Follow): void {
    if (++(this.depth[rule] as number) > this.limits.maxRecursionDepth)
      throw new Abort(`expression recursion limit exceeded: ${this.limits.maxRecursionDepth}`);
    this.follows.push(follow);
  }

  private leave(rule: number): void {
    (this.depth[rule] as number)--;
    this.follows.pop();
  }

  // ---- error reporting and recovery

  private syntaxError(offset: number, message: string): void {
    const text = message.includes("no viable alternative")
      ? message.replace(RESERVED_FIELD, "mismatched input '$1' expecting IDENTIFIER")
      : message;
    if (this.reports < this.limits.errorReportingLimit) {
      this.reports++;
      this.issues.push({ message: `Syntax error: ${text}`, offset });
      return;
    }
    this.issues.push({ message: `Syntax error: More than ${this.limits.errorReportingLimit} syntax errors`, offset });
    throw new Abort();
  }

  private display(token: Token): string {
    return token.type === T.EOF ? "'<EOF>'" : quote(this.source.slice(token.start, token.end));
  }

  /** The text of the tokens from start to offending (whitespace included, unrecognized text left out). */
  private textBetween(start: Token, offending: Token): string {
    const end = offending.type === T.EOF ? offending.start : offending.end;
    const skipped = this.lexed.skipped;
    let text = "";
    let from = start.start;
    for (let i = 0; i < skipped.length; i += 2) {
      const s = skipped[i] as number;
      const e = skipped[i + 1] as number;
      if (e <= from || s >= end) continue;
      text += this.source.slice(from, s);
      from = e;
    }
    return from < end ? text + this.source.slice(from, end) : text;
  }

  private beginError(): boolean {
    if (this.errorMode) return false;
    this.errorMode = true;
    return true;
  }

  private endErrorCondition(): void {
    this.errorMode = false;
    this.lastErrorIndex = -1;
    this.lastErrorStates = [];
  }

  private reportError(e: RecognitionError): void {
    if (!this.beginError()) return;
    const offending = this.tokens[e.offending] as Token;
    if (e.kind === "mismatch") {
      this.syntaxError(offending.start, `mismatched input ${this.display(offending)} expecting ${e.expected}`);
      return;
    }
    const start = this.tokens[e.start] as Token;
    const input = start.type === T.EOF ? "<EOF>" : this.textBetween(start, offending);
    this.syntaxError(offending.start, `no viable alternative at input ${quote(input)}`);
  }

  private reportUnwanted(expected: TokenSet): void {
    if (!this.beginError()) return;
    const token = this.lt(1);
    this.syntaxError(token.start, `extraneous input ${this.display(token)} expecting ${expected}`);
  }

  private reportMissing(expected: TokenSet): void {
    if (!this.beginError()) return;
    const token = this.lt(1);
    this.syntaxError(token.start, `missing ${expected} at ${this.display(token)}`);
  }

  private checkAttempts(): void {
    const limit = this.limits.errorRecoveryLimit;
    if (this.attempts === limit) {
      this.attempts++;
      this.syntaxError(this.lt(1).start, `error recovery attempt limit exceeded: ${limit}`);
      throw new Abort();
    }
    this.attempts++;
    this.skippedInRecovery = 0;
  }

  private consumeInRecovery(): void {
    const limit = this.limits.errorRecoveryLookaheadTokenLimit;
    if (this.skippedInRecovery >= limit) throw new Abort(`error recovery token lookahead limit exceeded: ${limit}`);
    this.skippedInRecovery++;
    this.consume();
  }

  private recoverySet(): TokenSet {
    let set = NO_TOKENS;
    for (const f of this.follows) set = set.union(f.set);
    return set;
  }

  /** A rule's error handler: report, then skip to a token that can follow a rule in progress. */
  private recover(e: unknown): void {
    if (!(e instanceof RecognitionError)) throw e;
    this.reportError(e);
    this.checkAttempts();
    if (this.lastErrorIndex === this.p && this.lastErrorStates.includes(e.state)) this.consumeInRecovery();
    this.lastErrorIndex = this.p;
    this.lastErrorStates.push(e.state);
    const stop = this.recoverySet();
    while (this.la(1) !== T.EOF && !stop.has(this.la(1))) this.consumeInRecovery();
  }

  /** A missing token: skip one stray token, or assume the token, or fail. */
  private recoverInline(type: number, state: number, after: Follow): Token {
    this.checkAttempts();
    const expected = TokenSet.of(type);
    if (this.la(2) === type) {
      this.reportUnwanted(expected);
      this.consumeInRecovery();
      this.endErrorCondition();
      const token = this.lt(1);
      this.consumeInRecovery();
      return token;
    }
    let next = after.set;
    for (let i = this.follows.length - 1; after.eps && i >= 0; i--) {
      const f = this.follows[i] as Follow;
      next = next.union(f.set);
      if (!f.eps) break;
    }
    if (next.has(this.la(1))) {
      this.reportMissing(expected);
      const at = this.lt(1).start;
      return { type, start: at, end: at };
    }
    throw new RecognitionError("mismatch", this.p, this.p, expected, state);
  }

  /** At a decision: the next token must be able to start one of the alternatives. */
  private sync(expected: TokenSet, state: number): void {
    if (this.errorMode || expected.has(this.la(1))) return;
    if (expected.has(this.la(2))) {
      this.reportUnwanted(expected);
      this.consume();
      this.endErrorCondition();
      return;
    }
    throw new RecognitionError("mismatch", this.p, this.p, expected, state);
  }

  /** After an iteration of a `+` loop: skip stray tokens up to what can continue or follow it. */
  private syncLoopBack(expected: TokenSet): void {
    if (this.errorMode || expected.has(this.la(1))) return;
    this.reportUnwanted(expected);
    const stop = expected.union(this.recoverySet());
    while (this.la(1) !== T.EOF && !stop.has(this.la(1))) this.consume();
  }

  private noViable(start: number, offending: number, state: number): RecognitionError {
    return new RecognitionError("noViable", offending, start, NO_TOKENS, state);
  }

  // ---- rules

  private start(): Syntax {
    this.enter(R_START, F_END);
    let result: Syntax = { k: "error", at: this.lt(1).start };
    try {
      result = this.expr(F_EOF);
      this.match(T.EOF, 1, AFTER_NOTHING);
    } catch (e) {
      this.recover(e);
    }
    this.leave(R_START);
    return result;
  }

  private expr(follow: Follow): Syntax {
    this.enter(R_EXPR, follow);
    let result = this.conditionalOr(F_QUESTION);
    if (this.la(1) === T.QUESTIONMARK) {
      const cond = result;
      const op = this.take();
      let then: Syntax = { k: "error", at: op.end };
      let otherwise: Syntax = { k: "error", at: op.end };
      try {
        then = this.conditionalOr(F_COLON);
        this.match(T.COLON, 2, AFTER_COLON);
        otherwise = this.expr(F_END);
      } catch (e) {
        this.recover(e);
      }
      result = { k: "ternary", cond, op, then, otherwise };
    }
    this.leave(R_EXPR);
    return result;
  }

  private conditionalOr(follow: Follow): Syntax {
    this.enter(R_OR, follow);
    const terms = [this.conditionalAnd(F_OR)];
    const ops: Token[] = [];
    while (this.la(1) === T.LOGICAL_OR) {
      ops.push(this.take());
      terms.push(this.conditionalAnd(F_OR));
    }
    this.leave(R_OR);
    return ops.length === 0 ? (terms[0] as Syntax) : { k: "logical", fn: "_||_", terms, ops };
  }

  private conditionalAnd(follow: Follow): Syntax {
    this.enter(R_AND, follow);
    const terms = [this.relation(true, F_AND)];
    const ops: Token[] = [];
    while (this.la(1) === T.LOGICAL_AND) {
      ops.push(this.take());
      terms.push(this.relation(true, F_AND));
    }
    this.leave(R_AND);
    return ops.length === 0 ? (terms[0] as Syntax) : { k: "logical", fn: "_&&_", terms, ops };
  }

  /** Relations associate to the left; the right operand of one is a `calc` (ANTLR's relation(2)). */
  private relation(chained: boolean, follow: Follow): Syntax {
    this.enter(R_RELATION, follow);
    let lhs = this.calc(0, F_RELATION);
    while (chained && RELATION_OPS.has(this.la(1))) {
      const op = this.take();
      const rhs = this.relation(false, F_RELATION);
      lhs = { k: "binary", fn: OPERATOR_FUNCTIONS.get(op.type) as string, op, lhs, rhs };
    }
    this.leave(R_RELATION);
    return lhs;
  }

  /** Precedence climbing as ANTLR does it for `calc`: prec 0 takes all operators, 2 only `* / %`, 3 none. */
  private calc(prec: number, follow: Follow): Syntax {
    this.enter(R_CALC, follow);
    let lhs = this.unary(F_CALC);
    for (;;) {
      const type = this.la(1);
      let next: number;
      if (MULTIPLICATIVE_OPS.has(type) && prec <= 2) next = 3;
      else if (ADDITIVE_OPS.has(type) && prec <= 1) next = 2;
      else break;
      const op = this.take();
      const rhs = this.calc(next, F_CALC);
      lhs = { k: "binary", fn: OPERATOR_FUNCTIONS.get(op.type) as string, op, lhs, rhs };
    }
    this.leave(R_CALC);
    return lhs;
  }

  private unary(follow: Follow): Syntax {
    this.enter(R_UNARY, follow);
    let result: Syntax = { k: "error", at: this.lt(1).start };
    try {
      this.sync(FIRST_EXPR, 10);
      const type = this.la(1);
      if (type === T.EXCLAM) {
        const ops: Token[] = [];
        do {
          ops.push(this.take());
          this.syncLoopBack(FIRST_EXPR);
        } while (this.la(1) === T.EXCLAM);
        const operand = this.member(F_END);
        result = { k: "unary", fn: "!_", ops, operand };
      } else if (type === T.MINUS && !isNumber(this.la(2))) {
        // `-` before a number is the number's sign; otherwise negation(s), where each `-` must be
        // followed by something an operand (or its sign) can start with.
        if (!FIRST_PRIMARY.has(this.la(2))) throw this.noViable(this.p, this.p + 1, 11);
        const ops: Token[] = [];
        for (;;) {
          ops.push(this.take());
          this.syncLoopBack(FIRST_PRIMARY);
          if (this.la(1) !== T.MINUS) break;
          if (!FIRST_PRIMARY.has(this.la(2))) throw this.noViable(this.p, this.p + 1, 12);
        }
        const operand = this.member(F_END);
        result = { k: "unary", fn: "-_", ops, operand };
      } else {
        if (!FIRST_PRIMARY.has(type)) throw this.noViable(this.p, this.p, 13);
        result = this.member(F_END);
      }
    } catch (e) {
      this.recover(e);
    }
    this.leave(R_UNARY);
    return result;
  }

  private member(follow: Follow): Syntax {
    this.enter(R_MEMBER, follow);
    let node: Syntax = { k: "error", at: this.lt(1).start };
    try {
      node = this.primary(F_MEMBER);
      for (;;) {
        const type = this.la(1);
        if (type === T.DOT) {
          const next = this.la(2);
          if (next === T.IDENTIFIER && this.la(3) === T.LPAREN) {
            const operand = node;
            this.take();
            const name = this.take();
            const open = this.take();
            const args = this.callArgs(20);
            node = { k: "memberCall", operand, name, open, args };
            this.match(T.RPAREN, 21, F_MEMBER);
          } else if (next === T.IDENTIFIER || next === T.ESC_IDENTIFIER || next === T.QUESTIONMARK) {
            const dot = this.take();
            this.sync(FIRST_OPT_FIELD, 22);
            const opt = this.la(1) === T.QUESTIONMARK ? this.take() : undefined;
            const field = this.escapeIdent(F_MEMBER);
            node = { k: "select", operand: node, dot, opt, field };
          } else throw this.noViable(this.p, this.p + 1, 23);
        } else if (type === T.LBRACKET) {
          const open = this.take();
          this.sync(FIRST_OPT_EXPR, 24);
          const opt = this.la(1) === T.QUESTIONMARK ? this.take() : undefined;
          const index = this.expr(F_RBRACKET);
          node = { k: "index", operand: node, open, opt, index };
          this.match(T.RBRACKET, 25, F_MEMBER);
        } else break;
      }
    } catch (e) {
      this.recover(e);
    }
    this.leave(R_MEMBER);
    return node;
  }

  private callArgs(state: number): Syntax[] {
    this.sync(ARGS_OR_CLOSE, state);
    return FIRST_EXPR.has(this.la(1)) ? this.exprList(F_RPAREN) : [];
  }

  private primary(follow: Follow): Syntax {
    this.enter(R_PRIMARY, follow);
    let result: Syntax = { k: "error", at: this.lt(1).start };
    try {
      this.sync(FIRST_PRIMARY, 30);
      switch (this.la(1)) {
        case T.DOT:
        case T.IDENTIFIER: {
          // An identifier, a call, or a message literal `a.b.C{…}` (which needs the whole dotted name).
          const leadingDot = this.la(1) === T.DOT ? this.lt(1) : undefined;
          const first = leadingDot === undefined ? 1 : 2;
          if (this.la(first) !== T.IDENTIFIER) throw this.noViable(this.p, this.p + 1, 31);
          let last = first;
          while (this.la(last + 1) === T.DOT && this.la(last + 2) === T.IDENTIFIER) last += 2;
          const isMessage = this.la(last + 1) === T.LBRACE;
          const isCall = this.la(first + 1) === T.LPAREN;
          if (leadingDot !== undefined) this.take();
          if (isMessage) {
            const names = [this.take()];
            while (this.la(1) === T.DOT) {
              this.take();
              names.push(this.take());
            }
            const fields: FieldSyntax[] = [];
            result = { k: "message", leadingDot, names, open: this.take(), fields };
            this.sync(MESSAGE_BODY, 32);
            if (FIRST_OPT_FIELD.has(this.la(1))) this.fieldInitializerList(fields, F_COMMA_RBRACE);
            this.closeWith(BRACE_END, T.RBRACE, 33);
          } else if (isCall) {
            const name = this.take();
            const open = this.take();
            const args: Syntax[] = [];
            result = { k: "call", leadingDot, name, open, args };
            args.push(...this.callArgs(34));
            this.match(T.RPAREN, 35, F_END);
          } else result = { k: "ident", leadingDot, name: this.take() };
          break;
        }
        case T.LPAREN: {
          this.take();
          result = this.expr(F_RPAREN);
          this.match(T.RPAREN, 36, F_END);
          break;
        }
        case T.LBRACKET: {
          const elements: { opt: Token | undefined; value: Syntax }[] = [];
          result = { k: "list", open: this.take(), elements };
          this.sync(LIST_BODY, 37);
          if (FIRST_OPT_EXPR.has(this.la(1))) this.listInit(elements, F_COMMA_RBRACKET);
          this.closeWith(LIST_END, T.RBRACKET, 38);
          break;
        }
        case T.LBRACE: {
          const entries: MapEntrySyntax[] = [];
          result = { k: "map", open: this.take(), entries };
          this.sync(MAP_BODY, 39);
          if (FIRST_OPT_EXPR.has(this.la(1))) this.mapInitializerList(entries, F_COMMA_RBRACE);
          this.closeWith(BRACE_END, T.RBRACE, 40);
          break;
        }
        default:
          if (!FIRST_PRIMARY.has(this.la(1))) throw this.noViable(this.p, this.p, 41);
          result = this.literal(F_END);
      }
    } catch (e) {
      this.recover(e);
    }
    this.leave(R_PRIMARY);
    return result;
  }

  /** The optional trailing comma and the closing bracket of a list, map or message literal. */
  private closeWith(end: TokenSet, close: number, state: number): void {
    this.sync(end, state);
    if (this.la(1) === T.COMMA) this.take();
    this.match(close, state + 100, F_END);
  }

  private exprList(follow: Follow): Syntax[] {
    this.enter(R_EXPR_LIST, follow);
    const list = [this.expr(F_COMMA)];
    while (this.la(1) === T.COMMA) {
      this.take();
      list.push(this.expr(F_COMMA));
    }
    this.leave(R_EXPR_LIST);
    return list;
  }

  private listInit(elements: { opt: Token | undefined; value: Syntax }[], follow: Follow): void {
    this.enter(R_LIST_INIT, follow);
    for (;;) {
      elements.push(this.optExpr(F_COMMA));
      if (this.la(1) !== T.COMMA || !FIRST_OPT_EXPR.has(this.la(2))) break;
      this.take();
    }
    this.leave(R_LIST_INIT);
  }

  private mapInitializerList(entries: MapEntrySyntax[], follow: Follow): void {
    this.enter(R_MAP_INITS, follow);
    try {
      for (;;) {
        const key = this.optExpr(F_COLON);
        const colon = this.match(T.COLON, 50, AFTER_COLON);
        const value = this.expr(F_COMMA);
        entries.push({ opt: key.opt, key: key.value, colon, value });
        if (this.la(1) !== T.COMMA || !FIRST_OPT_EXPR.has(this.la(2))) break;
        this.take();
      }
    } catch (e) {
      this.recover(e);
    }
    this.leave(R_MAP_INITS);
  }

  private fieldInitializerList(fields: FieldSyntax[], follow: Follow): void {
    this.enter(R_FIELD_INITS, follow);
    let field: { opt: Token | undefined; name: Token | undefined } | undefined;
    try {
      for (;;) {
        field = this.optField(F_COLON);
        const colon = this.match(T.COLON, 51, AFTER_COLON);
        const value = this.expr(F_COMMA);
        fields.push({ ...field, colon, value });
        field = undefined;
        if (this.la(1) !== T.COMMA || !FIRST_OPT_FIELD.has(this.la(2))) break;
        this.take();
      }
    } catch (e) {
      // A field left without its `:` and value ends the list, as in cel-go's visitor.
      if (field !== undefined) fields.push({ ...field, colon: undefined, value: undefined });
      this.recover(e);
    }
    this.leave(R_FIELD_INITS);
  }

  private optField(follow: Follow): { opt: Token | undefined; name: Token | undefined } {
    this.enter(R_OPT_FIELD, follow);
    let opt: Token | undefined;
    let name: Token | undefined;
    try {
      this.sync(FIRST_OPT_FIELD, 52);
      if (this.la(1) === T.QUESTIONMARK) opt = this.take();
      name = this.escapeIdent(F_END);
    } catch (e) {
      this.recover(e);
    }
    this.leave(R_OPT_FIELD);
    return { opt, name };
  }

  private optExpr(follow: Follow): { opt: Token | undefined; value: Syntax } {
    this.enter(R_OPT_EXPR, follow);
    let opt: Token | undefined;
    let value: Syntax = { k: "error", at: this.lt(1).start };
    try {
      this.sync(FIRST_OPT_EXPR, 53);
      if (this.la(1) === T.QUESTIONMARK) opt = this.take();
      value = this.expr(F_END);
    } catch (e) {
      this.recover(e);
    }
    this.leave(R_OPT_EXPR);
    return { opt, value };
  }

  private escapeIdent(follow: Follow): Token | undefined {
    this.enter(R_ESCAPE_IDENT, follow);
    let name: Token | undefined;
    try {
      this.sync(FIELD_NAMES, 54);
      if (!FIELD_NAMES.has(this.la(1))) throw this.noViable(this.p, this.p, 55);
      name = this.take();
    } catch (e) {
      this.recover(e);
    }
    this.leave(R_ESCAPE_IDENT);
    return name;
  }

  private literal(follow: Follow): Syntax {
    this.enter(R_LITERAL, follow);
    let result: Syntax = { k: "error", at: this.lt(1).start };
    try {
      if (this.la(1) === T.MINUS) {
        if (!isNumber(this.la(2))) throw this.noViable(this.p, this.p + 1, 56);
        const sign = this.take();
        result = { k: "literal", sign, token: this.take() };
      } else result = { k: "literal", sign: undefined, token: this.take() };
    } catch (e) {
      this.recover(e);
    }
    this.leave(R_LITERAL);
    return result;
  }
}

/** ANTLR's display of token text in messages: quoted, with tabs and line breaks escaped. */
function quote(text: string): string {
  return `'${text.replace(/\t/g, "\\t").replace(/\n/g, "\\n").replace(/\r/g, "\\r")}'`;
}
