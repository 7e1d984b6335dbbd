// String and bytes literal values, decoded as cel-go's parser decodes them: quotes (single, double,
// triple, raw `r`) removed, line breaks normalized to \n, escapes resolved. In strings \x and octal
// escapes are code points (`"\xC3"` is "Ã"); in bytes they are byte values and \u, \U are not allowed.

const textEncoder = new TextEncoder();

const SIMPLE: ReadonlyMap<string, number> = new Map([
  ["a", 0x07],
  ["b", 0x08],
  ["f", 0x0c],
  ["n", 0x0a],
  ["r", 0x0d],
  ["t", 0x09],
  ["v", 0x0b],
  ["\\", 0x5c],
  ["'", 0x27],
  ['"', 0x22],
  ["`", 0x60],
  ["?", 0x3f],
]);

const HEX_DIGITS: Readonly<Record<string, number>> = { x: 2, X: 2, u: 4, U: 8 };

export type Unescaped = { readonly value: string | Uint8Array } | { readonly error: string };

/** Decodes a STRING token's text (or a BYTES token's text without its `b`). */
export function unescapeLiteral(token: string, isBytes: boolean): Unescaped {
  let text = token.includes("\r") ? token.replace(/\r\n?/g, "\n") : token;
  const raw = text[0] === "r" || text[0] === "R";
  if (raw) text = text.slice(1);
  const triple = text.length >= 6 && (text.startsWith("'''") || text.startsWith('"""'));
  const body = triple ? text.slice(3, -3) : text.slice(1, -1);
  if (raw || !body.includes("\\")) return { value: isBytes ? textEncoder.encode(body) : body };
  return isBytes ? unescapeBytes(body) : unescapeString(body);
}

function unescapeString(body: string): Unescaped {
  let out = "";
  for (let i = 0; i < body.length; ) {
    const slash = body.indexOf("\\", i);
    if (slash < 0) {
      out += body.slice(i);
      break;
    }
    out += body.slice(i, slash);
    const decoded = decodeEscape(body, slash);
    if (decoded === undefined) return { error: "unable to unescape string" };
    const cp = decoded.value;
    if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return { error: "invalid unicode code point" };
    out += String.fromCodePoint(cp);
    i = decoded.end;
  }
  return { value: out };
}

function unescapeBytes(body: string): Unescaped {
  const bytes: number[] = [];
  for (let i = 0; i < body.length; ) {
    const slash = body.indexOf("\\", i);
    const plain = body.slice(i, slash < 0 ? body.length : slash);
    if (plain.length > 0) for (const b of textEncoder.encode(plain)) bytes.push(b);
    if (slash < 0) break;
    const letter = body[slash + 1];
    const decoded = letter === "u" || letter === "U" ? undefined : decodeEscape(body, slash);
    if (decoded === undefined) return { error: "unable to unescape string" };
    bytes.push(decoded.value);
    i = decoded.end;
  }
  return { value: Uint8Array.from(bytes) };
}

/** The value of the escape at `at` (a backslash) and where it ends; undefined when malformed. */
function decodeEscape(body: string, at: number): { value: number; end: number } | undefined {
  const letter = body[at + 1] ?? "";
  const simple = SIMPLE.get(letter);
  if (simple !== undefined) return { value: simple, end: at + 2 };
  const digits = HEX_DIGITS[letter];
  if (digits !== undefined) {
    const hex = body.slice(at + 2, at + 2 + digits);
    return hex.length === digits && /^[0-9a-fA-F]+$/.test(hex)
      ? { value: Number.parseInt(hex, 16), end: at + 2 + digits }
      : undefined;
  }
  const octal = body.slice(at + 1, at + 4);
  return /^[0-3][0-7][0-7]$/.test(octal) ? { value: Number.parseInt(octal, 8), end: at + 4 } : undefined;
}
