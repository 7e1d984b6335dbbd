// YAML as kube-apiserver writes it: sigs.k8s.io/yaml's JSONToYAML, which is go-yaml v2 marshalling the decoded
// JSON. That means map keys in go-yaml's natural order (digit runs compare as numbers, non-letters before
// letters), sequences not indented under their key, strings that would read back as another type (`"true"`,
// `"1"`, `""`, timestamps) double-quoted, other strings that cannot be plain single-quoted, multi-line strings as
// literal blocks. go-yaml also folds long plain strings at 80 columns; kapi leaves them on one line.
import { Document, visit } from "yaml";

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

/** The YAML document for a JSON value, as kube-apiserver's YAML serializer writes it. */
export function toGoYaml(value: unknown): string {
  const doc = new Document(value, {
    version: "1.1",
    sortMapEntries: (a, b) => goYamlKeyOrder(String(a.key), String(b.key)),
  });
  visit(doc, {
    Scalar(_, node) {
      const s = node.value;
      if (typeof s !== "string") return;
      // A space before a line break, a trailing space or a special character rules out the literal block.
      if (s.includes("\n")) node.type = / \n| $/.test(s) || NON_PRINTABLE.test(s) ? "QUOTE_DOUBLE" : "BLOCK_LITERAL";
      else if (resolvesAsNonString(s) || NON_PRINTABLE.test(s)) node.type = "QUOTE_DOUBLE";
    },
  });
  return doc.toString({ indentSeq: false, lineWidth: 0, singleQuote: true, blockQuote: "literal" });
}
