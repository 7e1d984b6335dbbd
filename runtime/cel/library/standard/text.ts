// Strings and bytes as cel-go sees them: a string's size counts code points, strings order by code
// point (Go compares UTF-8 bytes, which is the same order), and bytes convert to strings only when
// they are valid UTF-8.

/** Number of Unicode code points (Go's utf8.RuneCountInString). */
export function codePointLength(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/**
 * -1, 0 or 1 by code point order. UTF-16 code units order the same way except that surrogates
 * (U+D800–U+DFFF, which encode code points above U+FFFF) sort below U+E000–U+FFFF; fix that up at
 * the first difference.
 */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x !== y) {
      if (x >= 0xd800 && y >= 0xd800) {
        x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
        y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
      }
      return x < y ? -1 : 1;
    }
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

/** Lexicographic byte order. */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    if (x !== y) return x < y ? -1 : 1;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

export function concatBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

const encoder = new TextEncoder();
// fatal: reject invalid UTF-8 as Go's utf8.Valid does; ignoreBOM: keep a leading U+FEFF as text.
const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

export function utf8Encode(s: string): Uint8Array {
  return encoder.encode(s);
}

/** The text of UTF-8 bytes, or undefined when they are not valid UTF-8. */
export function utf8Decode(bytes: Uint8Array): string | undefined {
  try {
    return decoder.decode(bytes);
  } catch {
    return undefined;
  }
}
