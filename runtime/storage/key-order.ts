// Key order and ranges. etcd orders keys by bytes; for UTF-8 that is code point order, which JavaScript's
// `<` (UTF-16 code units) breaks only between astral characters and U+E000–U+FFFF.

/** Compares keys in UTF-8 byte order, as etcd and SQLite's BINARY collation do. */
export function compareKeys(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

/** Moves surrogates (astral code points) above U+E000–U+FFFF so code units sort as code points. */
function codePointRank(unit: number): number {
  if (unit < 0xd800) return unit;
  return unit >= 0xe000 ? unit - 0x800 : unit + 0x2000;
}

/**
 * The smallest key greater than every key starting with `prefix`, as etcd's GetPrefixRangeEnd; undefined
 * when no such key exists (empty prefix, or one made only of U+10FFFF).
 */
export function prefixEnd(prefix: string): string | undefined {
  // Walks code points back from the end on code units: Array.from(prefix) cost more than the read it bounds.
  let end = prefix.length;
  while (end > 0) {
    const low = prefix.charCodeAt(end - 1);
    const high = end > 1 ? prefix.charCodeAt(end - 2) : 0;
    const start = low >= 0xdc00 && low <= 0xdfff && high >= 0xd800 && high <= 0xdbff ? end - 2 : end - 1;
    let next = (prefix.codePointAt(start) as number) + 1;
    if (next === 0xd800) next = 0xe000;
    if (next <= 0x10ffff) return prefix.slice(0, start) + String.fromCodePoint(next);
    end = start;
  }
  return undefined;
}
