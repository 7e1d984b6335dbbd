// A JSON parser for request bodies. JSON.parse keeps the last of two equal keys without a trace, and kube
// reports each one (`duplicate field "metadata.name"`); well-kept parsers that do see them (jsonc-parser's
// visitor) report syntax errors in their own terms, while kube answers with Go's scanner wording, which
// depends on the scanner state at the offending byte. This one does both in one pass over the text.
// It is iterative, so nesting depth is bounded by Go's limit rather than by the call stack.
import { type DuplicateKey, fieldPath, type ParsedBody, type ParseFailure, setKey } from "./parsed-body.js";

/** encoding/json's scanner refuses deeper nesting. */
export const maxJsonDepth = 10000;

/** How many repeated keys a body's errors and warnings name. */
const maxNamedDuplicates = 100;

class SyntaxFailure {
  constructor(readonly message: string) {}
}

const unexpectedEnd = "unexpected end of JSON input";

/** The first UTF-8 byte of a character, which is what Go's byte scanner stops at. */
function firstByte(code: number): number {
  if (code < 0x80) return code;
  if (code < 0x800) return 0xc0 | (code >> 6);
  if (code < 0xd800 || (code >= 0xe000 && code < 0x10000)) return 0xe0 | (code >> 12);
  return 0xf0;
}

/** Go's quoteChar: the offending byte as the scanner prints it (`'x'`, `'\n'`, `'\u00a0'`). */
export function quoteChar(code: number): string {
  const c = firstByte(code);
  if (c === 0x27) return "'\\''";
  if (c === 0x22) return "'\"'";
  const escapes: Record<number, string> = { 7: "\\a", 8: "\\b", 9: "\\t", 10: "\\n", 11: "\\v", 12: "\\f", 13: "\\r" };
  const escaped = escapes[c];
  if (escaped !== undefined) return `'${escaped}'`;
  if (c < 0x20 || c === 0x7f) return `'\\x${c.toString(16).padStart(2, "0")}'`;
  // A byte above 0x7f is printed as the rune of that value; Latin-1 controls, NBSP and SHY are not printable.
  if ((c >= 0x80 && c <= 0xa0) || c === 0xad) return `'\\u${c.toString(16).padStart(4, "0")}'`;
  return `'${String.fromCharCode(c)}'`;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function hexValue(c: number): number {
  if (isDigit(c)) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  return -1;
}

const simpleEscapes: Record<number, string> = {
  34: '"',
  92: "\\",
  47: "/",
  98: "\b",
  102: "\f",
  110: "\n",
  114: "\r",
  116: "\t",
};

interface ObjectFrame {
  obj: Record<string, unknown>;
  /** The key whose value is being parsed. */
  key: string;
  distinct: number;
}

interface ArrayFrame {
  arr: unknown[];
}

type Frame = ObjectFrame | ArrayFrame;

class Parser {
  private pos = 0;
  private readonly stack: Frame[] = [];
  readonly duplicates: string[] = [];
  readonly duplicateKeys = new Map<object, DuplicateKey[]>();

  constructor(private readonly text: string) {}

  private fail(c: number, context: string): SyntaxFailure {
    return new SyntaxFailure(`invalid character ${quoteChar(c)} ${context}`);
  }

  private skipSpace(): void {
    while (this.pos < this.text.length && isSpace(this.text.charCodeAt(this.pos))) this.pos++;
  }

  /** The code unit at `i`, or undefined past the end. */
  private at(i: number): number | undefined {
    return i < this.text.length ? this.text.charCodeAt(i) : undefined;
  }

  /** The next byte after whitespace; the end of input is an error wherever a byte is still needed. */
  private next(): number {
    this.skipSpace();
    const c = this.at(this.pos);
    if (c === undefined) throw new SyntaxFailure(unexpectedEnd);
    return c;
  }

  parse(): unknown {
    for (;;) {
      let value = this.beginValue();
      if (value === undefined) continue;
      // A value is complete: hand it to its container, closing every container it completes.
      for (;;) {
        const top = this.stack.at(-1);
        if (top === undefined) {
          this.skipSpace();
          const c = this.at(this.pos);
          if (c !== undefined) throw this.fail(c, "after top-level value");
          return value.v;
        }
        const c = this.attach(top, value.v);
        this.pos++;
        if ("arr" in top) {
          if (c === 0x2c) break;
          if (c !== 0x5d) throw this.fail(c, "after array element");
          this.stack.pop();
          value = { v: top.arr };
        } else {
          if (c === 0x2c) {
            this.beginKey(top, this.next());
            break;
          }
          if (c !== 0x7d) throw this.fail(c, "after object key:value pair");
          this.stack.pop();
          value = { v: top.obj };
        }
      }
    }
  }

  /** Stores a finished value in its container and returns the byte that follows it. */
  private attach(top: Frame, v: unknown): number {
    if ("arr" in top) top.arr.push(v);
    else {
      if (Object.hasOwn(top.obj, top.key)) this.duplicate(top);
      else top.distinct++;
      setKey(top.obj, top.key, v);
    }
    return this.next();
  }

  private duplicate(top: ObjectFrame): void {
    // Each path costs its depth to build: past a bound a hostile body (a repeated key at every one of 10,000
    // levels) would stall the server for tens of seconds, so only the first ones are named.
    if (this.duplicates.length < maxNamedDuplicates) {
      const segments = this.stack.map((f) => ("arr" in f ? f.arr.length : f.key));
      this.duplicates.push(fieldPath(segments));
    }
    const list = this.duplicateKeys.get(top.obj);
    const entry = { key: top.key, after: top.distinct };
    if (list === undefined) this.duplicateKeys.set(top.obj, [entry]);
    else list.push(entry);
  }

  /** A scalar or an empty container as `{ v }`; undefined after opening a container that has contents. */
  private beginValue(): { v: unknown } | undefined {
    const c = this.next();
    switch (c) {
      case 0x7b: {
        this.checkDepth(c);
        this.pos++;
        const k = this.next();
        if (k === 0x7d) {
          this.pos++;
          return { v: {} };
        }
        const frame: ObjectFrame = { obj: {}, key: "", distinct: 0 };
        this.stack.push(frame);
        this.beginKey(frame, k);
        return undefined;
      }
      case 0x5b: {
        this.checkDepth(c);
        this.pos++;
        if (this.next() === 0x5d) {
          this.pos++;
          return { v: [] };
        }
        this.stack.push({ arr: [] });
        return undefined;
      }
      case 0x22:
        return { v: this.string() };
      case 0x74:
        return { v: this.literal("true", true) };
      case 0x66:
        return { v: this.literal("false", false) };
      case 0x6e:
        return { v: this.literal("null", null) };
      default:
        if (c === 0x2d || isDigit(c)) return { v: this.number() };
        throw this.fail(c, "looking for beginning of value");
    }
  }

  private checkDepth(c: number): void {
    if (this.stack.length >= maxJsonDepth) throw this.fail(c, "exceeded max depth");
  }

  /** Reads `"key":` into the frame; `c` is the byte where the key should start. */
  private beginKey(frame: ObjectFrame, c: number): void {
    if (c !== 0x22) throw this.fail(c, "looking for beginning of object key string");
    frame.key = this.string();
    const colon = this.next();
    if (colon !== 0x3a) throw this.fail(colon, "after object key");
    this.pos++;
  }

  private literal(word: string, value: boolean | null): boolean | null {
    for (let i = 1; i < word.length; i++) {
      const c = this.at(this.pos + i);
      if (c === undefined) throw new SyntaxFailure(unexpectedEnd);
      if (c !== word.charCodeAt(i)) throw this.fail(c, `in literal ${word} (expecting '${word[i]}')`);
    }
    this.pos += word.length;
    return value;
  }

  private number(): number {
    const start = this.pos;
    let c = this.at(this.pos);
    if (c === 0x2d) {
      c = this.at(++this.pos);
      if (c === undefined) throw new SyntaxFailure(unexpectedEnd);
      if (!isDigit(c)) throw this.fail(c, "in numeric literal");
    }
    if (c === 0x30) c = this.at(++this.pos);
    else while (c !== undefined && isDigit(c)) c = this.at(++this.pos);
    if (c === 0x2e) {
      c = this.at(++this.pos);
      if (c === undefined) throw new SyntaxFailure(unexpectedEnd);
      if (!isDigit(c)) throw this.fail(c, "after decimal point in numeric literal");
      while (c !== undefined && isDigit(c)) c = this.at(++this.pos);
    }
    if (c === 0x65 || c === 0x45) {
      c = this.at(++this.pos);
      if (c === 0x2b || c === 0x2d) c = this.at(++this.pos);
      if (c === undefined) throw new SyntaxFailure(unexpectedEnd);
      if (!isDigit(c)) throw this.fail(c, "in exponent of numeric literal");
      while (c !== undefined && isDigit(c)) c = this.at(++this.pos);
    }
    return Number(this.text.slice(start, this.pos));
  }

  /** A string starting at the opening quote; lone surrogate escapes become U+FFFD, as in Go. */
  private string(): string {
    const text = this.text;
    let i = ++this.pos;
    let out = "";
    let chunk = i;
    for (;;) {
      const c = this.at(i);
      if (c === undefined) throw new SyntaxFailure(unexpectedEnd);
      if (c === 0x22) break;
      if (c < 0x20) throw this.fail(c, "in string literal");
      if (c !== 0x5c) {
        i++;
        continue;
      }
      out += text.slice(chunk, i);
      const e = this.at(i + 1);
      if (e === undefined) throw new SyntaxFailure(unexpectedEnd);
      const simple = simpleEscapes[e];
      if (simple !== undefined) {
        out += simple;
        i += 2;
      } else if (e === 0x75) {
        const [decoded, end] = this.unicodeEscape(i);
        out += decoded;
        i = end;
      } else throw this.fail(e, "in string escape code");
      chunk = i;
    }
    out += text.slice(chunk, i);
    this.pos = i + 1;
    return out;
  }

  private hex4(at: number): number {
    let unit = 0;
    for (let j = 0; j < 4; j++) {
      const h = this.at(at + j);
      if (h === undefined) throw new SyntaxFailure(unexpectedEnd);
      const v = hexValue(h);
      if (v < 0) throw this.fail(h, "in \\u hexadecimal character escape");
      unit = unit * 16 + v;
    }
    return unit;
  }

  /** `\uXXXX` at `at`, joined with a following low surrogate escape; a lone surrogate becomes U+FFFD. */
  private unicodeEscape(at: number): [string, number] {
    const unit = this.hex4(at + 2);
    const end = at + 6;
    if (unit >= 0xd800 && unit < 0xdc00 && this.at(end) === 0x5c && this.at(end + 1) === 0x75) {
      const low = this.hex4(end + 2);
      if (low >= 0xdc00 && low < 0xe000) return [String.fromCharCode(unit, low), end + 6];
    }
    return [unit >= 0xd800 && unit < 0xe000 ? "\ufffd" : String.fromCharCode(unit), end];
  }
}

/** Parses a JSON body, or says why it is not JSON in encoding/json's words. */
export function parseJson(body: Buffer): ParsedBody | ParseFailure {
  const parser = new Parser(body.toString("utf8"));
  try {
    const value = parser.parse();
    return { value, duplicates: parser.duplicates, duplicateKeys: parser.duplicateKeys, yamlDuplicates: [] };
  } catch (e) {
    if (e instanceof SyntaxFailure) return { error: e.message };
    throw e;
  }
}
