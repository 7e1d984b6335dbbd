// YAML as kube-apiserver writes it: sigs.k8s.io/yaml's JSONToYAML, which is go-yaml v2 marshalling the decoded
// JSON. That means map keys in go-yaml's natural order (digit runs compare as numbers, non-letters before
// letters), sequences not indented under their key, strings that would read back as another type (`"true"`,
// `"1"`, `""`, timestamps) double-quoted, other strings that cannot be plain single-quoted, multi-line strings as
// literal blocks. go-yaml also folds long plain strings at 80 columns; kapi leaves them on one line. The
// scalars are spelled as the yaml library spells them (which kapi used before writing documents itself, to
// write them without recursing): its quoting rules for YAML 1.1 and its escapes.

const LETTER = /\p{L}/u;
const DIGIT = /\p{Nd}/u;

/** go-yaml v2's keyList.Less for two string keys. */
export function goYamlKeyLess(a: string, b: string): boolean {
  const ar = [...a];
  const br = [...b];
  for (let i = 0; i < ar.length && i < br.length; i++) {
    const ac = ar[i] as string;
    const bc = br[i] as string;
    if (ac === bc) continue;
    const al = LETTER.test(ac);
    const bl = LETTER.test(bc);
    if (al && bl) return (ac.codePointAt(0) ?? 0) < (bc.codePointAt(0) ?? 0);
    if (al || bl) return bl;
    let an = 0;
    let bn = 0;
    if (ac === "0" || bc === "0") {
      for (let j = i - 1; j >= 0 && DIGIT.test(ar[j] as string); j--) {
        if (ar[j] !== "0") {
          an = 1;
          bn = 1;
          break;
        }
      }
    }
    let ai = i;
    for (; ai < ar.length && DIGIT.test(ar[ai] as string); ai++) an = an * 10 + Number(ar[ai]);
    let bi = i;
    for (; bi < br.length && DIGIT.test(br[bi] as string); bi++) bn = bn * 10 + Number(br[bi]);
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return (ac.codePointAt(0) ?? 0) < (bc.codePointAt(0) ?? 0);
  }
  return ar.length < br.length;
}

function goYamlKeyOrder(a: string, b: string): number {
  if (goYamlKeyLess(a, b)) return -1;
  return goYamlKeyLess(b, a) ? 1 : 0;
}

// go-yaml v2's resolve table: plain scalars that decode as null, bool or float before anything is parsed.
const RESOLVE_MAP = new Set(
  "y Y yes Yes YES n N no No NO true True TRUE false False FALSE on On ON off Off OFF ~ null Null NULL".split(" "),
);
const SPECIAL_FLOATS = new Set(".inf .Inf .INF +.inf +.Inf +.INF -.inf -.Inf -.INF .nan .NaN .NAN".split(" "));
const TIMESTAMP =
  /^\d{4}-\d{1,2}-\d{1,2}(?:[Tt]\d{1,2}:\d{1,2}:\d{1,2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})|\s\d{1,2}:\d{1,2}:\d{1,2}(?:\.\d+)?)?$/;
const GO_INT = /^[-+]?(?:0[xX][0-9a-fA-F]+|0[bB][01]+|0[oO]?[0-7]*|[1-9][0-9]*)$/;
const YAML_FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;
const BASE60_FLOAT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;
// go-yaml's is_printable: LF, printable ASCII, and the BMP without surrogates, U+FEFF, U+FFFE and U+FFFF.
const NON_PRINTABLE = /[^\n\x20-\x7e\u00a0-\ud7ff\ue000-\ufefe\uff00-\ufffd]/u;

/** Whether go-yaml would resolve the plain scalar to something other than a string. */
function resolvesAsNonString(s: string): boolean {
  if (s === "" || RESOLVE_MAP.has(s) || SPECIAL_FLOATS.has(s)) return true;
  const c = s[0] as string;
  if (c === ".") return /^\.[0-9]+(?:[eE][-+]?[0-9]+)?$/.test(s);
  if (!/[0-9+-]/.test(c)) return false;
  if (TIMESTAMP.test(s)) return true;
  const plain = s.replace(/_/g, "");
  return GO_INT.test(plain) || YAML_FLOAT.test(plain) || BASE60_FLOAT.test(s);
}

/** Plain scalars may not start with an indicator, hold `: ` or ` #`, or end in a blank or a colon. */
const PLAIN_UNSAFE = /^[\n\t ,[\]{}#&*!|>'"%@`]|^[?-]$|^[?-][ \t]|[\n:][ \t]|[ \t]\n|[\n\t ]#|[\n\t :]$/;
const DOCUMENT_MARKER = /^(%|---|\.\.\.)/m;
/** Plain texts a YAML 1.1 reader takes for something other than a string (the yaml library's 1.1 tags). */
const YAML11_NON_STRINGS = [
  /^(?:~|[Nn]ull|NULL)?$/,
  /^(?:Y|y|[Yy]es|YES|[Tt]rue|TRUE|[Oo]n|ON)$/,
  /^(?:N|n|[Nn]o|NO|[Ff]alse|FALSE|[Oo]ff|OFF)$/,
  /^[-+]?0b[0-1_]+$/,
  /^[-+]?0[0-7_]+$/,
  /^[-+]?[0-9][0-9_]*$/,
  /^[-+]?0x[0-9a-fA-F_]+$/,
  /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/,
  /^[-+]?(?:[0-9][0-9_]*)?(?:\.[0-9_]*)?[eE][-+]?[0-9]+$/,
  /^[-+]?(?:[0-9][0-9_]*)?\.[0-9_]*$/,
  /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+$/,
  /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*$/,
  /^([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})(?:(?:t|T|[ \t]+)([0-9]{1,2}):([0-9]{1,2}):([0-9]{1,2}(\.[0-9]+)?)(?:[ \t]*(Z|[-+][012]?[0-9](?::[0-9]{2})?))?)?$/,
];
/** Escapes JSON writes as \uXXXX that YAML spells shorter. */
const YAML_ESCAPES: Readonly<Record<string, string>> = {
  "0000": "\\0",
  "0007": "\\a",
  "000b": "\\v",
  "001b": "\\e",
  "0085": "\\N",
  "00a0": "\\_",
  "2028": "\\L",
  "2029": "\\P",
};
/** Double-quoted texts at least this long turn escaped line breaks into real ones. */
const MULTI_LINE_QUOTED_LENGTH = 40;

/** Where a scalar is written: the indentation of its lines, and whether it is a mapping's key. */
interface ScalarPlace {
  indent: string;
  key: boolean;
}

/** The indentation of quoted and block text: a line starting like a document marker must not start a line. */
function textIndent(value: string, place: ScalarPlace): string {
  return place.indent || (DOCUMENT_MARKER.test(value) ? "  " : "");
}

/** A double-quoted scalar: JSON's escapes in YAML's spelling, long values broken at their line breaks. */
function doubleQuoted(value: string, place: ScalarPlace): string {
  const json = JSON.stringify(value);
  const indent = textIndent(value, place);
  let out = "";
  let start = 0;
  for (let i = 0; i < json.length; i++) {
    if (json[i] === " " && json[i + 1] === "\\" && json[i + 2] === "n") {
      // A space before a line break is escaped so that it is not taken for folding.
      out += `${json.slice(start, i)}\\ `;
      i += 1;
      start = i;
    }
    if (json[i] !== "\\") continue;
    if (json[i + 1] === "u") {
      const code = json.slice(i + 2, i + 6);
      out +=
        json.slice(start, i) + (YAML_ESCAPES[code] ?? (code.startsWith("00") ? `\\x${code.slice(2)}` : `\\u${code}`));
      i += 5;
      start = i + 1;
    } else if (json[i + 1] === "n" && !place.key && json[i + 2] !== '"' && json.length >= MULTI_LINE_QUOTED_LENGTH) {
      out += `${json.slice(start, i)}\n\n`;
      while (json[i + 2] === "\\" && json[i + 3] === "n" && json[i + 4] !== '"') {
        out += "\n";
        i += 2;
      }
      out += indent;
      // A space after the line break is escaped so that it is not taken for indentation.
      if (json[i + 2] === " ") out += "\\";
      i += 1;
      start = i + 1;
    } else {
      i += 1;
    }
  }
  return start === 0 ? json : out + json.slice(start);
}

function singleQuoted(value: string, place: ScalarPlace): string {
  if ((place.key && value.includes("\n")) || /[ \t]\n|\n[ \t]/.test(value)) return doubleQuoted(value, place);
  const indent = textIndent(value, place);
  return `'${value.replace(/'/g, "''").replace(/\n+/g, `$&\n${indent}`)}'`;
}

/** Quoted, preferring single quotes unless the text holds single quotes and no double ones. */
function quoted(value: string, place: ScalarPlace): string {
  return value.includes("'") && !value.includes('"') ? doubleQuoted(value, place) : singleQuoted(value, place);
}

/** A literal block (`|`, `|-`, `|+`), with an indentation indicator when the text starts with a space. */
function literalBlock(text: string, place: ScalarPlace): string {
  // A block cannot end in blanks after its last line break.
  if (/\n[\t ]+$/.test(text)) return quoted(text, place);
  const indent = textIndent(text, place);
  let value = text;
  let endStart = value.length;
  while (endStart > 0 && "\n\t ".includes(value.charAt(endStart - 1))) endStart--;
  let end = value.slice(endStart);
  const endBreak = end.indexOf("\n");
  const chomp = endBreak === -1 ? "-" : value === end || endBreak !== end.length - 1 ? "+" : "";
  if (end !== "") {
    value = value.slice(0, -end.length);
    if (end.endsWith("\n")) end = end.slice(0, -1);
    end = end.replace(/(^|(?<!\n))\n+(?!\n|$)/g, `$&${indent}`);
  }
  let startsWithSpace = false;
  let startEnd = 0;
  let lastBreak = -1;
  for (; startEnd < value.length; startEnd++) {
    const c = value.charAt(startEnd);
    if (c === " ") startsWithSpace = true;
    else if (c === "\n") lastBreak = startEnd;
    else break;
  }
  let start = value.slice(0, lastBreak < startEnd ? lastBreak + 1 : startEnd);
  if (start !== "") {
    value = value.slice(start.length);
    start = start.replace(/\n+/g, `$&${indent}`);
  }
  const header = (startsWithSpace ? (indent ? "2" : "1") : "") + chomp;
  return `|${header}\n${indent}${start}${value.replace(/\n+/g, `$&${indent}`)}${end}`;
}

function plain(value: string, place: ScalarPlace): string {
  if (PLAIN_UNSAFE.test(value))
    return place.key || !value.includes("\n") ? quoted(value, place) : literalBlock(value, place);
  // A key at the top level starting like a document marker would end the document.
  if (DOCUMENT_MARKER.test(value) && place.key && place.indent === "  ") return quoted(value, place);
  return YAML11_NON_STRINGS.some((re) => re.test(value)) ? quoted(value, place) : value;
}

/** How go-yaml writes a string: double-quoted, as a literal block, or plain if the text allows. */
function stringStyle(value: string): "double" | "literal" | "plain" {
  // A space before a line break, a trailing space or a special character rules out the literal block.
  if (value.includes("\n")) return / \n| $/.test(value) || NON_PRINTABLE.test(value) ? "double" : "literal";
  return resolvesAsNonString(value) || NON_PRINTABLE.test(value) ? "double" : "plain";
}

/** A string as go-yaml writes it, as far as the two agree (see the header). */
function stringScalar(value: string, place: ScalarPlace): string {
  const style = stringStyle(value);
  if (style === "double") return doubleQuoted(value, place);
  if (style === "literal") return place.key ? quoted(value, place) : literalBlock(value, place);
  return plain(value, place);
}

function scalar(value: unknown, place: ScalarPlace): string {
  if (typeof value === "string") return stringScalar(value, place);
  if (typeof value === "number") return Object.is(value, -0) ? "-0" : JSON.stringify(value);
  if (typeof value === "boolean") return String(value);
  return "null";
}

type Container = Record<string, unknown> | unknown[];

function isNonEmptyContainer(value: unknown): value is Container {
  if (typeof value !== "object" || value === null) return false;
  return Array.isArray(value) ? value.length > 0 : Object.keys(value).length > 0;
}

/** A collection being written: its entries (keys sorted), the next one, and the indentation of its lines. */
interface Open {
  entries: [string | undefined, unknown][];
  next: number;
  indent: string;
  /** A line break and the indentation, shared by all the collection's lines. */
  newLine: string;
}

/** Keys longer than this take the explicit `? key` form. */
const MAX_IMPLICIT_KEY = 1024;

/**
 * The YAML document for a JSON value, as kube-apiserver's YAML serializer writes it. Written with a stack of
 * its own, so that a value nested as deep as kapi stores anything is written like any other.
 */
export function toGoYaml(value: unknown): string {
  if (!isNonEmptyContainer(value)) {
    return `${Array.isArray(value) ? "[]" : typeof value === "object" && value !== null ? "{}" : scalar(value, { indent: "", key: false })}\n`;
  }
  const out: string[] = [];
  const open: Open[] = [];
  const enter = (container: Container, indent: string) => {
    const entries: [string | undefined, unknown][] = Array.isArray(container)
      ? container.map((item) => [undefined, item])
      : Object.keys(container)
          .filter((k) => container[k] !== undefined)
          .sort(goYamlKeyOrder)
          .map((k) => [k, container[k]]);
    open.push({ entries, next: 0, indent, newLine: `\n${indent}` });
  };
  enter(value, "");
  for (let top = open.at(-1); top !== undefined; top = open.at(-1)) {
    if (top.next === top.entries.length) {
      open.pop();
      continue;
    }
    const [key, item] = top.entries[top.next] as [string | undefined, unknown];
    if (top.next++ > 0) out.push(top.newLine);
    const inner = `${top.indent}  `;
    const empty = Array.isArray(item) ? "[]" : "{}";
    if (key === undefined) {
      // A list item: `- ` and the item, its own lines indented under the dash.
      out.push("- ");
      if (isNonEmptyContainer(item)) enter(item, inner);
      else out.push(typeof item === "object" && item !== null ? empty : scalar(item, { indent: inner, key: false }));
      continue;
    }
    // A key written as a literal block, or too long for an implicit key, takes the explicit `? key` form.
    const blockKey = stringStyle(key) === "literal";
    const keyText = stringScalar(key, { indent: inner, key: !blockKey });
    const explicit = blockKey || keyText.length > MAX_IMPLICIT_KEY;
    out.push(explicit ? `? ${keyText}\n${top.indent}:` : `${keyText}:`);
    if (!isNonEmptyContainer(item)) {
      out.push(` ${typeof item === "object" && item !== null ? empty : scalar(item, { indent: inner, key: false })}`);
    } else if (explicit) {
      out.push(" ");
      enter(item, inner);
    } else if (Array.isArray(item)) {
      // Lists are not indented under their key: the dash counts as indentation.
      out.push(top.newLine);
      enter(item, top.indent);
    } else {
      out.push(`\n${inner}`);
      enter(item, inner);
    }
  }
  out.push("\n");
  return out.join("");
}
