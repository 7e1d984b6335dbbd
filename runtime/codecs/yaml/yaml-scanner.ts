// The tokens of a YAML text, as go-yaml v2's scanner (a port of libyaml) produces them: the same tokens in
// the same order, the same errors at the same places, and its limits of 10,000 nested flow collections and
// 10,000 indentation levels. Tokens are made on demand, each character is looked at a bounded number of
// times, and nothing recurses, so a hostile text costs time in proportion to its length and no more.
import { YamlSyntaxError } from "./yaml-error.js";
import type { YamlInput } from "./yaml-input.js";

type TokenType =
  | "stream-start"
  | "stream-end"
  | "version-directive"
  | "tag-directive"
  | "document-start"
  | "document-end"
  | "block-sequence-start"
  | "block-mapping-start"
  | "block-end"
  | "flow-sequence-start"
  | "flow-sequence-end"
  | "flow-mapping-start"
  | "flow-mapping-end"
  | "block-entry"
  | "flow-entry"
  | "key"
  | "value"
  | "alias"
  | "anchor"
  | "tag"
  | "scalar";

export type ScalarStyle = "plain" | "single-quoted" | "double-quoted" | "literal" | "folded";

export interface Token {
  type: TokenType;
  /** 0-based lines where the token starts and ends. */
  start: number;
  end: number;
  /** A scalar's text, an anchor's or alias's name, a tag's or %TAG directive's handle. */
  value: string;
  /** A tag's suffix, a %TAG directive's prefix. */
  suffix: string;
  style: ScalarStyle;
  /** A %YAML directive's version. */
  major: number;
  minor: number;
  /** The flow level whose simple key starts at this token, or -1. */
  keyLevel: number;
}

/** A place where a mapping key without `?` may have begun, kept until its `:` shows or it cannot. */
interface SimpleKey {
  possible: boolean;
  /** In block context at the indentation column, a key is the only thing that may stand there. */
  required: boolean;
  /** The number the key's token will have among all tokens. */
  tokenNumber: number;
  /** Where it began: characters from the start, line, column. */
  index: number;
  line: number;
  column: number;
}

/** go-yaml's nesting limits (max_flow_level, max_indents). */
const maxFlowLevel = 10000;
const maxIndents = 10000;
/** An implicit key ends within 1024 characters of its start. */
const maxSimpleKeyLength = 1024;

const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const NEL = 0x85;
const LS = 0x2028;
const PS = 0x2029;

/** Characters that may appear in a tag URI besides letters, digits, `_` and `-`. */
const uriCharacters = new Set([...";/?:@&=+$,.!~*'()[]%"].map((c) => c.charCodeAt(0)));
/** Characters that may not start a plain scalar. */
const indicators = new Set([..."-?:,[]{}#&*!|>'\"%@`"].map((c) => c.charCodeAt(0)));
/** Characters that may follow an anchor or alias name. */
const afterAnchor = new Set([..."?:,]}%@`"].map((c) => c.charCodeAt(0)));
/** Characters that end a plain scalar in flow context. */
const flowIndicators = new Set([...",?[]{}"].map((c) => c.charCodeAt(0)));

const escapes: Readonly<Record<string, string>> = {
  "0": "\0",
  a: "\x07",
  b: "\b",
  t: "\t",
  "\t": "\t",
  n: "\n",
  v: "\v",
  f: "\f",
  r: "\r",
  e: "\x1b",
  " ": " ",
  '"': '"',
  "'": "'",
  "\\": "\\",
  N: "\u0085",
  _: "\u00a0",
  L: "\u2028",
  P: "\u2029",
};
const hexEscapeLengths: Readonly<Record<string, number>> = { x: 2, u: 4, U: 8 };

function isAlpha(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x2d;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function hexValue(c: number): number {
  if (isDigit(c)) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}

function isBreak(c: number): boolean {
  return c === CR || c === LF || c === NEL || c === LS || c === PS;
}

function isBlank(c: number): boolean {
  return c === SPACE || c === TAB;
}

/** A break or the end of the text (code 0). */
function isBreakZ(c: number): boolean {
  return c === 0 || isBreak(c);
}

function isBlankZ(c: number): boolean {
  return c === 0 || isBlank(c) || isBreak(c);
}

/** The bytes a UTF-8 lead byte announces; 0 for a byte that cannot lead. */
function utf8Width(octet: number): number {
  if ((octet & 0x80) === 0) return 1;
  if ((octet & 0xe0) === 0xc0) return 2;
  if ((octet & 0xf0) === 0xe0) return 3;
  if ((octet & 0xf8) === 0xf0) return 4;
  return 0;
}

function newToken(type: TokenType, start: number, end: number): Token {
  return { type, start, end, value: "", suffix: "", style: "plain", major: 0, minor: 0, keyLevel: -1 };
}

export class YamlScanner {
  private readonly text: string;
  private readonly readable: number;
  private readonly readerProblem: string;
  /** The position in `text` (UTF-16 units); the mark counts characters. */
  private pos = 0;
  private index = 0;
  private line = 0;
  private column = 0;

  private tokens: Token[] = [];
  private head = 0;
  private tokensParsed = 0;
  private tokenAvailable = false;
  private streamStartProduced = false;

  private flowLevel = 0;
  private indent = -1;
  private readonly indents: number[] = [];
  private simpleKeyAllowed = false;
  private readonly simpleKeys: SimpleKey[] = [];
  /** The flow level whose simple key the next queued token starts, or -1. */
  private nextTokenKeyLevel = -1;

  constructor(input: YamlInput) {
    this.text = input.text;
    this.readable = input.readable;
    this.readerProblem = input.problem;
  }

  /** The next token, scanning as far as needed to know it. */
  peek(): Token {
    if (!this.tokenAvailable) this.fetchMoreTokens();
    return this.tokens[this.head] as Token;
  }

  /** Moves past the token `peek` returned. */
  skipToken(): void {
    this.tokenAvailable = false;
    this.tokensParsed++;
    this.head++;
  }

  // --- characters ------------------------------------------------------------------------------------

  /** The code unit `k` units ahead, 0 past the end (go-yaml pads its buffer with NULs). */
  private c(k = 0): number {
    const i = this.pos + k;
    return i < this.text.length ? this.text.charCodeAt(i) : 0;
  }

  /** go-yaml's cache(): the reader must supply `n` more characters, which fails at a bad one. */
  private cache(n: number): void {
    if (this.index + n > this.readable) throw new YamlSyntaxError("reader", this.readerProblem, 0);
  }

  /** Moves past one character. */
  private skip(): void {
    const code = this.text.charCodeAt(this.pos);
    this.pos += code >= 0xd800 && code < 0xdc00 ? 2 : 1;
    this.index++;
    this.column++;
  }

  /** Moves past one character and returns it. */
  private read(): string {
    const start = this.pos;
    this.skip();
    return this.text.slice(start, this.pos);
  }

  /** Moves past a line break (CR LF counting as one). */
  private skipLine(): void {
    const c = this.c();
    if (c === CR && this.c(1) === LF) {
      this.pos += 2;
      this.index += 2;
    } else if (isBreak(c)) {
      this.pos++;
      this.index++;
    } else {
      return;
    }
    this.column = 0;
    this.line++;
  }

  /** Moves past a line break and returns it as it reads in a scalar: `\n`, or LS and PS as they are. */
  private readLine(): string {
    const c = this.c();
    if (!isBreak(c)) return "";
    const text = c === LS || c === PS ? String.fromCharCode(c) : "\n";
    this.skipLine();
    return text;
  }

  /** A scanner error, reported where the scanner stands (go-yaml's context mark never shows in the message). */
  private error(problem: string): YamlSyntaxError {
    return new YamlSyntaxError("scanner", problem, this.line);
  }

  // --- the token queue -------------------------------------------------------------------------------

  private insertToken(at: number, token: Token): void {
    if (this.head > 1024 && this.head * 2 > this.tokens.length) {
      this.tokens = this.tokens.slice(this.head);
      this.head = 0;
    }
    if (at < 0) this.tokens.push(token);
    else this.tokens.splice(this.head + at, 0, token);
  }

  private queue(token: Token): void {
    token.keyLevel = this.nextTokenKeyLevel;
    this.nextTokenKeyLevel = -1;
    this.insertToken(-1, token);
  }

  /** Scans until the head of the queue can no longer turn out to be a simple key's start. */
  private fetchMoreTokens(): void {
    for (;;) {
      if (this.head !== this.tokens.length) {
        // The head may still become a key if the simple key saved for it is still possible.
        const level = (this.tokens[this.head] as Token).keyLevel;
        const key = level < 0 ? undefined : this.simpleKeys[level];
        if (key === undefined || key.tokenNumber !== this.tokensParsed || !this.simpleKeyIsValid(key)) break;
      }
      this.fetchNextToken();
    }
    this.tokenAvailable = true;
  }

  private fetchNextToken(): void {
    this.cache(1);
    if (!this.streamStartProduced) {
      this.fetchStreamStart();
      return;
    }
    this.scanToNextToken();
    this.unrollIndent(this.column);
    this.cache(4);
    const c = this.c();
    if (this.pos >= this.text.length) {
      this.fetchStreamEnd();
      return;
    }
    const atLineStart = this.column === 0;
    if (atLineStart && c === 0x25) {
      this.fetchDirective();
      return;
    }
    if (atLineStart && this.isDocumentIndicator()) {
      this.fetchDocumentIndicator(c === 0x2d ? "document-start" : "document-end");
      return;
    }
    switch (c) {
      case 0x5b:
        this.fetchFlowCollectionStart("flow-sequence-start");
        return;
      case 0x7b:
        this.fetchFlowCollectionStart("flow-mapping-start");
        return;
      case 0x5d:
        this.fetchFlowCollectionEnd("flow-sequence-end");
        return;
      case 0x7d:
        this.fetchFlowCollectionEnd("flow-mapping-end");
        return;
      case 0x2c:
        this.fetchFlowEntry();
        return;
    }
    const next = this.c(1);
    if (c === 0x2d && isBlankZ(next)) {
      this.fetchBlockEntry();
      return;
    }
    if (c === 0x3f && (this.flowLevel > 0 || isBlankZ(next))) {
      this.fetchKey();
      return;
    }
    if (c === 0x3a && (this.flowLevel > 0 || isBlankZ(next))) {
      this.fetchValue();
      return;
    }
    switch (c) {
      case 0x2a:
        this.fetchAnchor("alias");
        return;
      case 0x26:
        this.fetchAnchor("anchor");
        return;
      case 0x21:
        this.fetchTag();
        return;
      case 0x7c:
      case 0x3e:
        if (this.flowLevel === 0) {
          this.fetchBlockScalar(c === 0x7c);
          return;
        }
        break;
      case 0x27:
      case 0x22:
        this.fetchFlowScalar(c === 0x27);
        return;
    }
    if (
      !(isBlankZ(c) || indicators.has(c)) ||
      (c === 0x2d && !isBlank(next)) ||
      (this.flowLevel === 0 && (c === 0x3f || c === 0x3a) && !isBlankZ(next))
    ) {
      this.fetchPlainScalar();
      return;
    }
    throw this.error("found character that cannot start any token");
  }

  /** `---` or `...` followed by a blank or the end. */
  private isDocumentIndicator(): boolean {
    const c = this.c();
    return (c === 0x2d || c === 0x2e) && this.c(1) === c && this.c(2) === c && isBlankZ(this.c(3));
  }

  // --- simple keys, flow levels, indentation ---------------------------------------------------------

  private simpleKeyIsValid(key: SimpleKey): boolean {
    if (!key.possible) return false;
    if (key.line < this.line || key.index + maxSimpleKeyLength < this.index) {
      if (key.required) throw this.error("could not find expected ':'");
      key.possible = false;
      return false;
    }
    return true;
  }

  private saveSimpleKey(): void {
    if (!this.simpleKeyAllowed) return;
    const required = this.flowLevel === 0 && this.indent === this.column;
    this.removeSimpleKey();
    const key = this.simpleKeys[this.simpleKeys.length - 1] as SimpleKey;
    this.placeSimpleKey(key, true, required);
    this.nextTokenKeyLevel = this.simpleKeys.length - 1;
  }

  /** Records that a simple key may start at the current position (each flow level reuses its record). */
  private placeSimpleKey(key: SimpleKey, possible: boolean, required: boolean): void {
    key.possible = possible;
    key.required = required;
    key.tokenNumber = this.tokensParsed + (this.tokens.length - this.head);
    key.index = this.index;
    key.line = this.line;
    key.column = this.column;
  }

  private removeSimpleKey(): void {
    const key = this.simpleKeys[this.simpleKeys.length - 1] as SimpleKey;
    if (!key.possible) return;
    if (key.required) throw this.error("could not find expected ':'");
    key.possible = false;
  }

  private increaseFlowLevel(): void {
    const key = { possible: false, required: false, tokenNumber: 0, index: 0, line: 0, column: 0 };
    this.placeSimpleKey(key, false, false);
    this.simpleKeys.push(key);
    this.flowLevel++;
    if (this.flowLevel > maxFlowLevel) {
      throw this.error(`exceeded max depth of ${maxFlowLevel}`);
    }
  }

  private decreaseFlowLevel(): void {
    if (this.flowLevel === 0) return;
    this.flowLevel--;
    this.simpleKeys.pop();
  }

  /** Opens a block collection when `column` is deeper than the current indentation (block context only). */
  private rollIndent(column: number, tokenNumber: number, type: TokenType, line: number): void {
    if (this.flowLevel > 0 || this.indent >= column) return;
    this.indents.push(this.indent);
    this.indent = column;
    if (this.indents.length > maxIndents) {
      throw this.error(`exceeded max depth of ${maxIndents}`);
    }
    this.insertToken(tokenNumber > -1 ? tokenNumber - this.tokensParsed : -1, newToken(type, line, line));
  }

  /** Closes the block collections deeper than `column`. */
  private unrollIndent(column: number): void {
    if (this.flowLevel > 0) return;
    while (this.indent > column) {
      this.queue(newToken("block-end", this.line, this.line));
      this.indent = this.indents.pop() as number;
    }
  }

  // --- fetching each kind of token -------------------------------------------------------------------

  private fetchStreamStart(): void {
    this.indent = -1;
    this.simpleKeys.push({ possible: false, required: false, tokenNumber: 0, index: 0, line: 0, column: 0 });
    this.simpleKeyAllowed = true;
    this.streamStartProduced = true;
    this.queue(newToken("stream-start", this.line, this.line));
  }

  private fetchStreamEnd(): void {
    // The end counts as the start of a new line.
    if (this.column !== 0) {
      this.column = 0;
      this.line++;
    }
    this.unrollIndent(-1);
    this.removeSimpleKey();
    this.simpleKeyAllowed = false;
    this.queue(newToken("stream-end", this.line, this.line));
  }

  private fetchDirective(): void {
    this.unrollIndent(-1);
    this.removeSimpleKey();
    this.simpleKeyAllowed = false;
    this.queue(this.scanDirective());
  }

  private fetchDocumentIndicator(type: TokenType): void {
    this.unrollIndent(-1);
    this.removeSimpleKey();
    this.simpleKeyAllowed = false;
    this.queue(this.indicatorToken(type, 3));
  }

  /** A token for the `length` indicator characters at the current position. */
  private indicatorToken(type: TokenType, length: number): Token {
    const start = this.line;
    for (let i = 0; i < length; i++) this.skip();
    return newToken(type, start, this.line);
  }

  private fetchFlowCollectionStart(type: TokenType): void {
    this.saveSimpleKey();
    this.increaseFlowLevel();
    this.simpleKeyAllowed = true;
    this.queue(this.indicatorToken(type, 1));
  }

  private fetchFlowCollectionEnd(type: TokenType): void {
    this.removeSimpleKey();
    this.decreaseFlowLevel();
    this.simpleKeyAllowed = false;
    this.queue(this.indicatorToken(type, 1));
  }

  private fetchFlowEntry(): void {
    this.removeSimpleKey();
    this.simpleKeyAllowed = true;
    this.queue(this.indicatorToken("flow-entry", 1));
  }

  private fetchBlockEntry(): void {
    if (this.flowLevel === 0) {
      if (!this.simpleKeyAllowed) {
        throw this.error("block sequence entries are not allowed in this context");
      }
      this.rollIndent(this.column, -1, "block-sequence-start", this.line);
    }
    // In flow context the parser reports the stray `-`, where it can name the collection.
    this.removeSimpleKey();
    this.simpleKeyAllowed = true;
    this.queue(this.indicatorToken("block-entry", 1));
  }

  private fetchKey(): void {
    if (this.flowLevel === 0) {
      if (!this.simpleKeyAllowed) throw this.error("mapping keys are not allowed in this context");
      this.rollIndent(this.column, -1, "block-mapping-start", this.line);
    }
    this.removeSimpleKey();
    this.simpleKeyAllowed = this.flowLevel === 0;
    this.queue(this.indicatorToken("key", 1));
  }

  private fetchValue(): void {
    const key = this.simpleKeys[this.simpleKeys.length - 1] as SimpleKey;
    if (this.simpleKeyIsValid(key)) {
      // The simple key turns out to be one: its KEY token goes where it began.
      this.insertToken(key.tokenNumber - this.tokensParsed, newToken("key", key.line, key.line));
      this.rollIndent(key.column, key.tokenNumber, "block-mapping-start", key.line);
      key.possible = false;
      this.simpleKeyAllowed = false;
    } else {
      if (this.flowLevel === 0) {
        if (!this.simpleKeyAllowed) {
          throw this.error("mapping values are not allowed in this context");
        }
        this.rollIndent(this.column, -1, "block-mapping-start", this.line);
      }
      this.simpleKeyAllowed = this.flowLevel === 0;
    }
    this.queue(this.indicatorToken("value", 1));
  }

  private fetchAnchor(type: "anchor" | "alias"): void {
    this.saveSimpleKey();
    this.simpleKeyAllowed = false;
    this.queue(this.scanAnchor(type));
  }

  private fetchTag(): void {
    this.saveSimpleKey();
    this.simpleKeyAllowed = false;
    this.queue(this.scanTag());
  }

  private fetchBlockScalar(literal: boolean): void {
    this.removeSimpleKey();
    this.simpleKeyAllowed = true;
    this.queue(this.scanBlockScalar(literal));
  }

  private fetchFlowScalar(single: boolean): void {
    this.saveSimpleKey();
    this.simpleKeyAllowed = false;
    this.queue(this.scanFlowScalar(single));
  }

  private fetchPlainScalar(): void {
    this.saveSimpleKey();
    this.simpleKeyAllowed = false;
    this.queue(this.scanPlainScalar());
  }

  // --- scanning ----------------------------------------------------------------------------------------

  /** Skips blanks, comments and line breaks; tabs only where they cannot be mistaken for indentation. */
  private scanToNextToken(): void {
    for (;;) {
      this.cache(1);
      while (this.c() === SPACE || ((this.flowLevel > 0 || !this.simpleKeyAllowed) && this.c() === TAB)) {
        this.skip();
        this.cache(1);
      }
      if (this.c() === 0x23) this.skipToLineEnd();
      if (!isBreak(this.c())) return;
      this.cache(2);
      this.skipLine();
      if (this.flowLevel === 0) this.simpleKeyAllowed = true;
    }
  }

  private skipToLineEnd(): void {
    while (!isBreakZ(this.c())) {
      this.skip();
      this.cache(1);
    }
  }

  private skipBlanks(): void {
    this.cache(1);
    while (isBlank(this.c())) {
      this.skip();
      this.cache(1);
    }
  }

  /** Reads the rest of the line up to its break, as go-yaml reads it one character at a time. */
  private readToLineEnd(): string {
    const start = this.pos;
    while (!isBreakZ(this.c())) {
      this.skip();
      this.cache(1);
    }
    return this.text.slice(start, this.pos);
  }

  private scanDirective(): Token {
    const start = this.line;
    this.skip();
    const name = this.scanDirectiveName();
    let token: Token;
    if (name === "YAML") {
      this.skipBlanks();
      const major = this.scanVersionNumber();
      if (this.c() !== 0x2e) {
        throw this.error("did not find expected digit or '.' character");
      }
      this.skip();
      const minor = this.scanVersionNumber();
      token = newToken("version-directive", start, this.line);
      token.major = major;
      token.minor = minor;
    } else if (name === "TAG") {
      this.skipBlanks();
      const handle = this.scanTagHandle(true);
      this.cache(1);
      if (!isBlank(this.c())) {
        throw this.error("did not find expected whitespace");
      }
      this.skipBlanks();
      const prefix = this.scanTagUri("");
      this.cache(1);
      if (!isBlankZ(this.c())) {
        throw this.error("did not find expected whitespace or line break");
      }
      token = newToken("tag-directive", start, this.line);
      token.value = handle;
      token.suffix = prefix;
    } else {
      throw this.error("found unknown directive name");
    }
    this.skipBlanks();
    if (this.c() === 0x23) this.skipToLineEnd();
    if (!isBreakZ(this.c())) {
      throw this.error("did not find expected comment or line break");
    }
    if (isBreak(this.c())) {
      this.cache(2);
      this.skipLine();
    }
    return token;
  }

  private scanDirectiveName(): string {
    this.cache(1);
    const from = this.pos;
    while (isAlpha(this.c())) {
      this.skip();
      this.cache(1);
    }
    const name = this.text.slice(from, this.pos);
    if (name === "") throw this.error("could not find expected directive name");
    if (!isBlankZ(this.c())) {
      throw this.error("found unexpected non-alphabetical character");
    }
    return name;
  }

  private scanVersionNumber(): number {
    this.cache(1);
    let value = 0;
    let length = 0;
    while (isDigit(this.c())) {
      length++;
      if (length > 2) throw this.error("found extremely long version number");
      value = value * 10 + (this.c() - 0x30);
      this.skip();
      this.cache(1);
    }
    if (length === 0) throw this.error("did not find expected version number");
    return value;
  }

  private scanAnchor(type: "anchor" | "alias"): Token {
    const start = this.line;
    this.skip();
    this.cache(1);
    const from = this.pos;
    while (isAlpha(this.c())) {
      this.skip();
      this.cache(1);
    }
    const end = this.line;
    const name = this.text.slice(from, this.pos);
    if (name === "" || !(isBlankZ(this.c()) || afterAnchor.has(this.c()))) {
      throw this.error("did not find expected alphabetic or numeric character");
    }
    const token = newToken(type, start, end);
    token.value = name;
    return token;
  }

  private scanTag(): Token {
    const start = this.line;
    this.cache(2);
    let handle = "";
    let suffix: string;
    if (this.c(1) === 0x3c) {
      // The verbatim form, !<uri>.
      this.skip();
      this.skip();
      suffix = this.scanTagUri("");
      if (this.c() !== 0x3e) throw this.error("did not find the expected '>'");
      this.skip();
    } else {
      handle = this.scanTagHandle(false);
      if (handle.length > 1 && handle.endsWith("!")) {
        suffix = this.scanTagUri("");
      } else {
        // Not a handle after all: `!local`, or the lone `!`.
        suffix = this.scanTagUri(handle);
        handle = "!";
        if (suffix === "") [handle, suffix] = ["", "!"];
      }
    }
    this.cache(1);
    if (!isBlankZ(this.c())) {
      throw this.error("did not find expected whitespace or line break");
    }
    const token = newToken("tag", start, this.line);
    token.value = handle;
    token.suffix = suffix;
    return token;
  }

  private scanTagHandle(directive: boolean): string {
    this.cache(1);
    if (this.c() !== 0x21) throw this.error("did not find expected '!'");
    const from = this.pos;
    this.skip();
    this.cache(1);
    while (isAlpha(this.c())) {
      this.skip();
      this.cache(1);
    }
    if (this.c() === 0x21) {
      this.skip();
    } else if (directive && this.pos - from !== 1) {
      throw this.error("did not find expected '!'");
    }
    return this.text.slice(from, this.pos);
  }

  /** A tag's URI; `head` is what was taken for a handle and turned out to be the URI's start. */
  private scanTagUri(head: string): string {
    let uri = head.slice(1);
    let found = head.length > 0;
    this.cache(1);
    for (;;) {
      const c = this.c();
      if (!(isAlpha(c) || uriCharacters.has(c))) break;
      if (c === 0x25) uri += this.scanUriEscapes();
      else uri += this.read();
      this.cache(1);
      found = true;
    }
    if (!found) throw this.error("did not find expected tag URI");
    return uri;
  }

  /** `%XX` escapes making up one UTF-8 character. */
  private scanUriEscapes(): string {
    const bytes: number[] = [];
    let width = 0;
    do {
      this.cache(3);
      const high = hexValue(this.c(1));
      const low = hexValue(this.c(2));
      if (this.c() !== 0x25 || high < 0 || low < 0) {
        throw this.error("did not find URI escaped octet");
      }
      const octet = high * 16 + low;
      if (bytes.length === 0) {
        width = utf8Width(octet);
        if (width === 0) throw this.error("found an incorrect leading UTF-8 octet");
      } else if ((octet & 0xc0) !== 0x80) {
        throw this.error("found an incorrect trailing UTF-8 octet");
      }
      bytes.push(octet);
      this.skip();
      this.skip();
      this.skip();
    } while (bytes.length < width);
    return Buffer.from(bytes).toString("utf8");
  }

  private scanBlockScalar(literal: boolean): Token {
    const start = this.line;
    this.skip();
    this.cache(1);
    let chomping = 0;
    let increment = 0;
    const chompingOf = (c: number) => (c === 0x2b ? 1 : c === 0x2d ? -1 : 0);
    const indentationIndicator = () => {
      if (this.c() === 0x30) {
        throw this.error("found an indentation indicator equal to 0");
      }
      increment = this.c() - 0x30;
      this.skip();
    };
    if (chompingOf(this.c()) !== 0) {
      chomping = chompingOf(this.c());
      this.skip();
      this.cache(1);
      if (isDigit(this.c())) indentationIndicator();
    } else if (isDigit(this.c())) {
      indentationIndicator();
      this.cache(1);
      if (chompingOf(this.c()) !== 0) {
        chomping = chompingOf(this.c());
        this.skip();
      }
    }
    this.skipBlanks();
    if (this.c() === 0x23) this.skipToLineEnd();
    if (!isBreakZ(this.c())) {
      throw this.error("did not find expected comment or line break");
    }
    if (isBreak(this.c())) {
      this.cache(2);
      this.skipLine();
    }
    let indent = 0;
    if (increment > 0) indent = this.indent >= 0 ? this.indent + increment : increment;
    let breaks = this.scanBlockScalarBreaks(indent);
    indent = breaks.indent;
    let end = breaks.end;
    let trailingBreaks = breaks.text;
    let leadingBreak = "";
    let value = "";
    this.cache(1);
    let leadingBlank = false;
    while (this.column === indent && this.pos < this.text.length) {
      // At the start of a line with content.
      const trailingBlank = isBlank(this.c());
      if (!literal && !leadingBlank && !trailingBlank && leadingBreak.startsWith("\n")) {
        // Folding: a single line break between two text lines becomes a space.
        if (trailingBreaks === "") value += " ";
      } else {
        value += leadingBreak;
      }
      leadingBreak = "";
      value += trailingBreaks;
      leadingBlank = isBlank(this.c());
      value += this.readToLineEnd();
      this.cache(2);
      leadingBreak = this.readLine();
      breaks = this.scanBlockScalarBreaks(indent);
      end = breaks.end;
      trailingBreaks = breaks.text;
    }
    if (chomping !== -1) value += leadingBreak;
    if (chomping === 1) value += trailingBreaks;
    const token = newToken("scalar", start, end);
    token.value = value;
    token.style = literal ? "literal" : "folded";
    return token;
  }

  /** Indentation and empty lines before a block scalar's next line; settles the indentation if not yet known. */
  private scanBlockScalarBreaks(known: number): { indent: number; text: string; end: number } {
    let end = this.line;
    let text = "";
    let maxIndent = 0;
    for (;;) {
      this.cache(1);
      while ((known === 0 || this.column < known) && this.c() === SPACE) {
        this.skip();
        this.cache(1);
      }
      if (this.column > maxIndent) maxIndent = this.column;
      if ((known === 0 || this.column < known) && this.c() === TAB) {
        throw this.error("found a tab character where an indentation space is expected");
      }
      if (!isBreak(this.c())) break;
      this.cache(2);
      text += this.readLine();
      end = this.line;
    }
    const indent = known !== 0 ? known : Math.max(maxIndent, this.indent + 1, 1);
    return { indent, text, end };
  }

  /**
   * A quoted scalar. Text is taken in runs reaching over blanks within a line; a line break drops the blanks
   * before it and folds into a space (or into the empty lines that follow it).
   */
  private scanFlowScalar(single: boolean): Token {
    const start = this.line;
    this.skip();
    let value = "";
    let leadingBreak = "";
    let trailingBreaks = "";
    const quote = single ? 0x27 : 0x22;
    /** Where the text not yet in `value` starts (-1: none), and where its last non-blank character ends. */
    let run = this.pos;
    let runEnd = this.pos;
    for (;;) {
      this.cache(4);
      if (this.column === 0 && this.isDocumentIndicator()) throw this.error("found unexpected document indicator");
      if (this.pos >= this.text.length) throw this.error("found unexpected end of stream");
      let leadingBlanks = false;
      if (run < 0) run = this.pos;
      while (!isBlankZ(this.c())) {
        const c = this.c();
        if (single && c === 0x27 && this.c(1) === 0x27) {
          // `''` is one quote: keep the first, drop the second.
          this.skip();
          value += this.text.slice(run, this.pos);
          this.skip();
          run = this.pos;
        } else if (c === quote) {
          break;
        } else if (!single && c === 0x5c && isBreak(this.c(1))) {
          // An escaped line break: the break and the next line's indentation vanish, blanks before it stay.
          value += this.text.slice(run, this.pos);
          this.cache(3);
          this.skip();
          this.skipLine();
          leadingBlanks = true;
          run = -1;
          break;
        } else if (!single && c === 0x5c) {
          value += this.text.slice(run, this.pos) + this.scanEscape();
          run = this.pos;
        } else {
          this.skip();
        }
        runEnd = this.pos;
        this.cache(2);
      }
      this.cache(1);
      if (this.c() === quote) break;
      while (isBlank(this.c()) || isBreak(this.c())) {
        if (isBlank(this.c())) {
          this.skip();
        } else {
          this.cache(2);
          if (leadingBlanks) {
            trailingBreaks += this.readLine();
          } else {
            value += this.text.slice(run, runEnd);
            run = -1;
            leadingBreak = this.readLine();
            leadingBlanks = true;
          }
        }
        this.cache(1);
      }
      if (leadingBlanks) {
        if (leadingBreak.startsWith("\n")) value += trailingBreaks === "" ? " " : trailingBreaks;
        else value += leadingBreak + trailingBreaks;
        leadingBreak = "";
        trailingBreaks = "";
      }
    }
    value += this.text.slice(run, this.pos);
    this.skip();
    const token = newToken("scalar", start, this.line);
    token.value = value;
    token.style = single ? "single-quoted" : "double-quoted";
    return token;
  }

  /** A backslash escape in a double-quoted scalar. */
  private scanEscape(): string {
    const letter = String.fromCharCode(this.c(1));
    const simple = escapes[letter];
    const length = hexEscapeLengths[letter] ?? 0;
    if (simple === undefined && length === 0) {
      throw this.error("found unknown escape character");
    }
    this.skip();
    this.skip();
    if (simple !== undefined) return simple;
    this.cache(length);
    let value = 0;
    for (let k = 0; k < length; k++) {
      const digit = hexValue(this.c(k));
      if (digit < 0) throw this.error("did not find expected hexdecimal number");
      value = value * 16 + digit;
    }
    if ((value >= 0xd800 && value <= 0xdfff) || value > 0x10ffff) {
      throw this.error("found invalid Unicode character escape code");
    }
    for (let k = 0; k < length; k++) this.skip();
    return String.fromCodePoint(value);
  }

  /**
   * A plain scalar, ending at `: `, ` #`, a flow indicator in flow context, or a line indented less than the
   * block. Text is taken in runs reaching over blanks within a line; line breaks fold as in quoted scalars.
   */
  private scanPlainScalar(): Token {
    let value = "";
    let leadingBreak = "";
    let trailingBreaks = "";
    let leadingBlanks = false;
    const indent = this.indent + 1;
    const start = this.line;
    let end = this.line;
    /** Where the text not yet in `value` starts (-1: none), and where its last non-blank character ends. */
    let run = -1;
    let runEnd = -1;
    for (;;) {
      this.cache(4);
      if (this.column === 0 && this.isDocumentIndicator()) break;
      if (this.c() === 0x23) break;
      while (!isBlankZ(this.c())) {
        const c = this.c();
        if ((c === 0x3a && isBlankZ(this.c(1))) || (this.flowLevel > 0 && flowIndicators.has(c))) break;
        if (leadingBlanks) {
          // A line break since the last run: a single one folds into a space.
          if (leadingBreak.startsWith("\n")) value += trailingBreaks === "" ? " " : trailingBreaks;
          else value += leadingBreak + trailingBreaks;
          leadingBreak = "";
          trailingBreaks = "";
          leadingBlanks = false;
        }
        if (run < 0) run = this.pos;
        this.skip();
        runEnd = this.pos;
        end = this.line;
        this.cache(2);
      }
      if (!(isBlank(this.c()) || isBreak(this.c()))) break;
      this.cache(1);
      while (isBlank(this.c()) || isBreak(this.c())) {
        if (isBlank(this.c())) {
          if (leadingBlanks && this.column < indent && this.c() === TAB) {
            throw this.error("found a tab character that violates indentation");
          }
          this.skip();
        } else {
          this.cache(2);
          if (leadingBlanks) {
            trailingBreaks += this.readLine();
          } else {
            if (run >= 0) value += this.text.slice(run, runEnd);
            run = -1;
            leadingBreak = this.readLine();
            leadingBlanks = true;
          }
        }
        this.cache(1);
      }
      if (this.flowLevel === 0 && this.column < indent) break;
    }
    if (run >= 0) value += this.text.slice(run, runEnd);
    const token = newToken("scalar", start, end);
    token.value = value;
    if (leadingBlanks) this.simpleKeyAllowed = true;
    return token;
  }
}
