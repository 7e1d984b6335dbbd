// CEL's lexer, following the token rules of cel-go's ANTLR grammar (CEL.g4) and ANTLR's lexing
// discipline: the longest match wins (keywords over identifiers at equal length); when no token
// matches, the error covers the text up to and including the character that failed, that character
// is skipped and lexing resumes after it. Offsets are code points, as cel-go's source positions.
import { T, type Token } from "./tokens.js";

/** The source with code-point offsets: code points and substrings by code-point range. */
export class SourceText {
  /** Code points, only when the text has characters outside the BMP (otherwise UTF-16 units are code points). */
  private readonly codePoints: number[] | undefined;
  /** UTF-16 index of each code-point offset, alongside codePoints. */
  private readonly utf16Index: number[] | undefined;
  readonly length: number;

  constructor(readonly text: string) {
    if (!/[\uD800-\uDBFF]/.test(text)) {
      this.length = text.length;
      return;
    }
    const cps: number[] = [];
    const index: number[] = [];
    for (let i = 0; i < text.length; i++) {
      const cp = text.codePointAt(i) as number;
      index.push(i);
      cps.push(cp);
      if (cp > 0xffff) i++;
    }
    index.push(text.length);
    this.codePoints = cps;
    this.utf16Index = index;
    this.length = cps.length;
  }

  /** The code point at an offset, -1 past the end. */
  at(i: number): number {
    if (i >= this.length) return -1;
    return this.codePoints === undefined ? this.text.charCodeAt(i) : (this.codePoints[i] as number);
  }

  slice(start: number, end: number): string {
    const index = this.utf16Index;
    return index === undefined ? this.text.slice(start, end) : this.text.slice(index[start], index[end]);
  }
}

export interface LexError {
  /** Code-point offset where the unrecognized text starts. */
  readonly offset: number;
  /** The unrecognized text, including the character at which lexing failed. */
  readonly text: string;
  /** Index of the next token after the error, so errors are reported only once the parser gets there. */
  readonly beforeToken: number;
}

export interface LexResult {
  /** The tokens the parser sees (no whitespace or comments), ending with EOF. */
  readonly tokens: readonly Token[];
  readonly errors: readonly LexError[];
  /** [start, end) ranges dropped by lexer errors, flattened; they are not part of any token's text. */
  readonly skipped: readonly number[];
}

const TAB = 0x09;
const LF = 0x0a;
const FF = 0x0c;
const CR = 0x0d;
const SPACE = 0x20;
const DQUOTE = 0x22;
const SQUOTE = 0x27;
const BACKSLASH = 0x5c;
const BACKTICK = 0x60;

const SINGLE_CHAR_TOKENS: ReadonlyMap<number, number> = new Map([
  [0x5b, T.LBRACKET],
  [0x5d, T.RBRACKET],
  [0x7b, T.LBRACE],
  [0x7d, T.RBRACE],
  [0x28, T.LPAREN],
  [0x29, T.RPAREN],
  [0x2c, T.COMMA],
  [0x2d, T.MINUS],
  [0x3f, T.QUESTIONMARK],
  [0x3a, T.COLON],
  [0x2b, T.PLUS],
  [0x2a, T.STAR],
  [0x2f, T.SLASH],
  [0x25, T.PERCENT],
]);

const KEYWORDS: ReadonlyMap<string, number> = new Map([
  ["in", T.IN],
  ["true", T.TRUE],
  ["false", T.FALSE],
  ["null", T.NULL],
]);

/** Characters after a backslash that form a complete escape (\a \b \f \n \r \t \v \" \' \\ \? \`). */
const SIMPLE_ESCAPES = new Set([0x61, 0x62, 0x66, 0x6e, 0x72, 0x74, 0x76, DQUOTE, SQUOTE, BACKSLASH, 0x3f, BACKTICK]);

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isHex(c: number): boolean {
  return isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

function isLetter(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

function isIdentPart(c: number): boolean {
  return isLetter(c) || isDigit(c) || c === 0x5f;
}

/** Characters allowed between backticks: letters, digits, `_`, `.`, `-`, `/` and space. */
function isEscapedIdentPart(c: number): boolean {
  return isIdentPart(c) || c === 0x2e || c === 0x2d || c === 0x2f || c === SPACE;
}

function isWhitespace(c: number): boolean {
  return c === SPACE || c === TAB || c === LF || c === CR || c === FF;
}

export function lex(source: SourceText): LexResult {
  return new Lexer(source).run();
}

/**
 * Each scan returns the end of the token it matched (its kind in `type`), or -1 with the offset of
 * the character where matching failed in `failAt`.
 */
class Lexer {
  private readonly n: number;
  private type = 0;
  private failAt = 0;

  constructor(private readonly source: SourceText) {
    this.n = source.length;
  }

  run(): LexResult {
    const { source, n } = this;
    const tokens: Token[] = [];
    const errors: LexError[] = [];
    const skipped: number[] = [];
    let i = 0;
    while (i < n) {
      const c = source.at(i);
      if (isWhitespace(c)) {
        i++;
        while (isWhitespace(source.at(i))) i++;
        continue;
      }
      if (c === 0x2f && source.at(i + 1) === 0x2f) {
        while (i < n && source.at(i) !== LF) i++;
        continue;
      }
      const end = this.scan(i);
      if (end >= 0) {
        tokens.push({ type: this.type, start: i, end });
        i = end;
        continue;
      }
      const stop = this.failAt < n ? this.failAt + 1 : n;
      errors.push({ offset: i, text: source.slice(i, stop), beforeToken: tokens.length });
      skipped.push(i, stop);
      i = stop;
    }
    tokens.push({ type: T.EOF, start: n, end: n });
    return { tokens, errors, skipped };
  }

  private token(type: number, end: number): number {
    this.type = type;
    return end;
  }

  private fail(at: number): number {
    this.failAt = at;
    return -1;
  }

  private scan(i: number): number {
    const source = this.source;
    const c = source.at(i);
    const next = source.at(i + 1);
    switch (c) {
      case 0x3d: // =
        return next === 0x3d ? this.token(T.EQUALS, i + 2) : this.fail(i + 1);
      case 0x21: // !
        return next === 0x3d ? this.token(T.NOT_EQUALS, i + 2) : this.token(T.EXCLAM, i + 1);
      case 0x3c: // <
        return next === 0x3d ? this.token(T.LESS_EQUALS, i + 2) : this.token(T.LESS, i + 1);
      case 0x3e: // >
        return next === 0x3d ? this.token(T.GREATER_EQUALS, i + 2) : this.token(T.GREATER, i + 1);
      case 0x26: // &
        return next === 0x26 ? this.token(T.LOGICAL_AND, i + 2) : this.fail(i + 1);
      case 0x7c: // |
        return next === 0x7c ? this.token(T.LOGICAL_OR, i + 2) : this.fail(i + 1);
      case 0x2e: {
        // `.5` is a double; a dot otherwise.
        if (!isDigit(next)) return this.token(T.DOT, i + 1);
        let j = i + 1;
        while (isDigit(source.at(j))) j++;
        const exp = this.scanExponent(j);
        return this.token(T.NUM_FLOAT, exp > 0 ? exp : j);
      }
      case DQUOTE:
      case SQUOTE:
        return this.scanQuoted(i, false, T.STRING);
      case BACKTICK: {
        let j = i + 1;
        while (isEscapedIdentPart(source.at(j))) j++;
        return j > i + 1 && source.at(j) === BACKTICK ? this.token(T.ESC_IDENTIFIER, j + 1) : this.fail(j);
      }
    }
    const single = SINGLE_CHAR_TOKENS.get(c);
    if (single !== undefined) return this.token(single, i + 1);
    if (isDigit(c)) return this.scanNumber(i);
    if (isLetter(c) || c === 0x5f) return this.scanWord(i);
    return this.fail(i);
  }

  /** Position after an escape sequence starting at a backslash, or -1. */
  private scanEscape(j: number): number {
    const source = this.source;
    const c = source.at(j + 1);
    if (SIMPLE_ESCAPES.has(c)) return j + 2;
    let digits = 0;
    if (c === 0x78 || c === 0x58) digits = 2;
    else if (c === 0x75) digits = 4;
    else if (c === 0x55) digits = 8;
    if (digits > 0) {
      for (let k = j + 2; k < j + 2 + digits; k++) if (!isHex(source.at(k))) return this.fail(k);
      return j + 2 + digits;
    }
    if (c >= 0x30 && c <= 0x33) {
      for (let k = j + 2; k < j + 4; k++) if (!isOctal(source.at(k))) return this.fail(k);
      return j + 4;
    }
    return this.fail(j + 1);
  }

  /** A quoted string from the opening quote at q; `type` says STRING or BYTES. */
  private scanQuoted(q: number, raw: boolean, type: number): number {
    const source = this.source;
    const quote = source.at(q);
    if (source.at(q + 1) === quote && source.at(q + 2) === quote) {
      // Triple-quoted: anything (escapes checked unless raw) up to the first closing triple quote;
      // when that fails, the empty string `""` is the longest token ANTLR accepted on the way.
      for (let j = q + 3; ; ) {
        if (j >= this.n) return this.token(type, q + 2);
        const c = source.at(j);
        if (c === quote && source.at(j + 1) === quote && source.at(j + 2) === quote) return this.token(type, j + 3);
        if (raw || c !== BACKSLASH) j++;
        else {
          j = this.scanEscape(j);
          if (j < 0) return this.token(type, q + 2);
        }
      }
    }
    for (let j = q + 1; ; ) {
      if (j >= this.n) return this.fail(this.n);
      const c = source.at(j);
      if (c === quote) return this.token(type, j + 1);
      if (c === LF || c === CR) return this.fail(j);
      if (raw || c !== BACKSLASH) j++;
      else {
        j = this.scanEscape(j);
        if (j < 0) return -1;
      }
    }
  }

  private scanExponent(k: number): number {
    const source = this.source;
    const c = source.at(k);
    if (c !== 0x65 && c !== 0x45) return -1;
    let m = k + 1;
    if (source.at(m) === 0x2b || source.at(m) === 0x2d) m++;
    if (!isDigit(source.at(m))) return -1;
    while (isDigit(source.at(m))) m++;
    return m;
  }

  private scanNumber(i: number): number {
    const source = this.source;
    if (source.at(i) === 0x30 && source.at(i + 1) === 0x78 && isHex(source.at(i + 2))) {
      let j = i + 2;
      while (isHex(source.at(j))) j++;
      return isUintSuffix(source.at(j)) ? this.token(T.NUM_UINT, j + 1) : this.token(T.NUM_INT, j);
    }
    let j = i;
    while (isDigit(source.at(j))) j++;
    if (isUintSuffix(source.at(j))) return this.token(T.NUM_UINT, j + 1);
    let type: number = T.NUM_INT;
    if (source.at(j) === 0x2e && isDigit(source.at(j + 1))) {
      j += 1;
      while (isDigit(source.at(j))) j++;
      type = T.NUM_FLOAT;
    }
    const exp = this.scanExponent(j);
    return exp > 0 ? this.token(T.NUM_FLOAT, exp) : this.token(type, j);
  }

  /** Identifiers, keywords and the r/b/br prefixes of raw strings and bytes. */
  private scanWord(i: number): number {
    const source = this.source;
    let end = i + 1;
    while (isIdentPart(source.at(end))) end++;
    const c0 = source.at(i) | 0x20;
    const c1 = source.at(i + 1);
    let quoted = -1;
    if (c0 === 0x72 && isQuote(c1)) quoted = this.scanQuoted(i + 1, true, T.STRING);
    else if (c0 === 0x62 && isQuote(c1)) quoted = this.scanQuoted(i + 1, false, T.BYTES);
    else if (c0 === 0x62 && (c1 | 0x20) === 0x72 && isQuote(source.at(i + 2)))
      quoted = this.scanQuoted(i + 2, true, T.BYTES);
    // A string that failed leaves its prefix as an identifier (unless it accepted `""` on the way).
    if (quoted > end) return quoted;
    const keyword = end - i <= 5 ? KEYWORDS.get(source.slice(i, end)) : undefined;
    return this.token(keyword ?? T.IDENTIFIER, end);
  }
}

function isQuote(c: number): boolean {
  return c === DQUOTE || c === SQUOTE;
}

function isUintSuffix(c: number): boolean {
  return c === 0x75 || c === 0x55;
}

function isOctal(c: number): boolean {
  return c >= 0x30 && c <= 0x37;
}
