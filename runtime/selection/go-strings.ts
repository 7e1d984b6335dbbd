// Go orders strings by their UTF-8 bytes, which is code point order; JavaScript's `<` compares UTF-16
// units and disagrees past U+FFFF. Canonical selector strings must sort as kube sorts them.

export function compareGoStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i) ?? 0;
    const y = b.codePointAt(i) ?? 0;
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}
