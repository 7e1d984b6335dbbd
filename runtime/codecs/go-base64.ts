// Where Go's base64.StdEncoding stops reading a string, since kube answers a bad []byte field (a Secret's
// data) with that position: `illegal base64 data at input byte 4`. Line breaks are skipped, padding is
// required, and the offset counts UTF-8 bytes.

const cr = 0x0d;
const lf = 0x0a;
const pad = 0x3d;

function inAlphabet(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2f;
}

function skipLineBreaks(src: Buffer, at: number): number {
  let i = at;
  while (i < src.length && (src[i] === cr || src[i] === lf)) i++;
  return i;
}

/** The offset Go's decoder reports for `s`, or undefined when it decodes. */
export function base64ErrorOffset(s: string): number | undefined {
  const src = Buffer.from(s, "utf8");
  let si = 0;
  while (si < src.length) {
    for (let j = 0; j < 4; j++) {
      if (si === src.length) return j === 0 ? undefined : si - j;
      const c = src[si++] as number;
      if (inAlphabet(c)) continue;
      if (c === cr || c === lf) {
        j--;
        continue;
      }
      if (c !== pad || j < 2) return si - 1;
      if (j === 2) {
        si = skipLineBreaks(src, si);
        if (si === src.length) return si;
        if (src[si] !== pad) return si - 1;
        si++;
      }
      si = skipLineBreaks(src, si);
      return si < src.length ? si : undefined;
    }
  }
  return undefined;
}
