// A YAML body's bytes as go-yaml v2's reader sees them: UTF-8, or UTF-16 after its byte order mark, every
// character checked (invalid sequences and control characters are refused). go-yaml decodes its input in
// blocks of 512 bytes as the scanner asks for more, so a bad byte is only noticed once the scanner reaches
// the block holding it: a mistake earlier in the text wins over a control character further on.

/** go-yaml's reader takes its input 512 bytes at a time. */
const blockBytes = 512;

export interface YamlInput {
  /** The text up to the first bad character. */
  text: string;
  /** How many characters the scanner may ask for before the reader fails; Infinity when nothing is wrong. */
  readable: number;
  /** The reader's complaint, once the scanner asks for more than `readable`. */
  problem: string;
}

/** go-yaml's printable set: tab, line breaks, NEL and everything visible outside the surrogates, FFFE and FFFF. */
function printable(c: number): boolean {
  return (
    c === 0x09 ||
    c === 0x0a ||
    c === 0x0d ||
    (c >= 0x20 && c <= 0x7e) ||
    c === 0x85 ||
    (c >= 0xa0 && c <= 0xd7ff) ||
    (c >= 0xe000 && c <= 0xfffd) ||
    (c >= 0x10000 && c <= 0x10ffff)
  );
}

interface Decoded {
  code: number;
  /** The bytes the reader had to see to decide: the character's width, or what was left of the input. */
  width: number;
  problem?: string;
}

type Decoder = (buf: Uint8Array, at: number) => Decoded;

const utf8: Decoder = (buf, at) => {
  const lead = buf[at] as number;
  if (lead < 0x80) return { code: lead, width: 1 };
  let width: number;
  if ((lead & 0xe0) === 0xc0) width = 2;
  else if ((lead & 0xf0) === 0xe0) width = 3;
  else if ((lead & 0xf8) === 0xf0) width = 4;
  else return { code: 0, width: 1, problem: "invalid leading UTF-8 octet" };
  if (at + width > buf.length) return { code: 0, width: buf.length - at, problem: "incomplete UTF-8 octet sequence" };
  let code = lead & (0x7f >> width);
  for (let k = 1; k < width; k++) {
    const trail = buf[at + k] as number;
    if ((trail & 0xc0) !== 0x80) return { code: 0, width, problem: "invalid trailing UTF-8 octet" };
    code = (code << 6) | (trail & 0x3f);
  }
  if (code < (width === 2 ? 0x80 : width === 3 ? 0x800 : 0x10000)) {
    return { code: 0, width, problem: "invalid length of a UTF-8 sequence" };
  }
  if ((code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff)
    return { code, width, problem: "invalid Unicode character" };
  return { code, width };
};

function utf16(littleEndian: boolean): Decoder {
  const unit = (buf: Uint8Array, i: number) =>
    littleEndian
      ? (buf[i] as number) | ((buf[i + 1] as number) << 8)
      : ((buf[i] as number) << 8) | (buf[i + 1] as number);
  return (buf, at) => {
    if (at + 2 > buf.length) return { code: 0, width: buf.length - at, problem: "incomplete UTF-16 character" };
    const first = unit(buf, at);
    if ((first & 0xfc00) === 0xdc00) return { code: first, width: 2, problem: "unexpected low surrogate area" };
    if ((first & 0xfc00) !== 0xd800) return { code: first, width: 2 };
    if (at + 4 > buf.length) return { code: 0, width: buf.length - at, problem: "incomplete UTF-16 surrogate pair" };
    const second = unit(buf, at + 2);
    if ((second & 0xfc00) !== 0xdc00) return { code: second, width: 4, problem: "expected low surrogate area" };
    return { code: 0x10000 + ((first & 0x3ff) << 10) + (second & 0x3ff), width: 4 };
  };
}

/** The characters whose bytes end before `limit`, counted from `start`. */
function charsBefore(buf: Uint8Array, start: number, limit: number, decode: Decoder): number {
  let chars = 0;
  for (let at = start; ; chars++) {
    const width = decode(buf, at).width;
    if (at + width > limit) return chars;
    at += width;
  }
}

/** Decodes a body as go-yaml's reader does; a bad character ends the text, and `readable` says when it shows. */
export function readYamlInput(buf: Buffer): YamlInput {
  let start = 0;
  let decode = utf8;
  let encoding: "utf8" | "utf16le" | "utf-16be" = "utf8";
  if (buf[0] === 0xff && buf[1] === 0xfe) {
    [start, decode, encoding] = [2, utf16(true), "utf16le"];
  } else if (buf[0] === 0xfe && buf[1] === 0xff) {
    [start, decode, encoding] = [2, utf16(false), "utf-16be"];
  } else if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) {
    start = 3;
  }
  let at = start;
  let problem: string | undefined;
  let width = 0;
  while (at < buf.length) {
    const byte = buf[at] as number;
    // Printable ASCII, the bulk of any body, is checked without decoding.
    if (decode === utf8 && byte < 0x7f && (byte >= 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d)) {
      at++;
      continue;
    }
    const d = decode(buf, at);
    problem = d.problem ?? (printable(d.code) ? undefined : "control characters are not allowed");
    if (problem !== undefined) {
      width = d.width;
      break;
    }
    at += d.width;
  }
  const text =
    encoding === "utf-16be"
      ? new TextDecoder("utf-16be").decode(buf.subarray(start, at))
      : buf.toString(encoding, start, at);
  if (problem === undefined) return { text, readable: Number.POSITIVE_INFINITY, problem: "" };
  const block = Math.floor((at + Math.max(width, 1) - 1) / blockBytes) * blockBytes;
  return { text, readable: charsBefore(buf, start, Math.max(block, start), decode), problem };
}
