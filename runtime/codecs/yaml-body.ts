// A YAML request body turned into the value kube's YAML decoder produces: YAML 1.1 scalars as go-yaml v2
// reads them (yes/no booleans, 0777 octals; timestamps stay strings), only the first document, and every
// mapping's keys sorted, since kube converts YAML to JSON through a Go map before decoding and later steps
// (unknown-field reports) follow that order. Repeated keys are found on the document tree and worded as
// go-yaml's strict mode words them.
import {
  type Document,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  type Node,
  parseAllDocuments,
  type Tags,
} from "yaml";
import { goQuote } from "../errors/format-field-error.js";
import type { ParsedBody, ParseFailure } from "./parsed-body.js";

const timestampTag = "tag:yaml.org,2002:timestamp";
const binaryTag = "tag:yaml.org,2002:binary";

/** go-yaml v2 leaves timestamps and sexagesimal numbers as strings when decoding into interface{}. */
function goYamlTags(tags: Tags): Tags {
  return tags.filter((t) => {
    if (typeof t !== "object") return true;
    return t.tag !== timestampTag && t.tag !== binaryTag && !("format" in t && t.format === "TIME");
  });
}

/** go-yaml's words for the mistakes people make most; anything else reads as a missing node. */
const goYamlMessages: Partial<Record<string, string>> = {
  BLOCK_AS_IMPLICIT_KEY: "mapping values are not allowed in this context",
  TAB_AS_INDENT: "found character that cannot start any token",
  BAD_SCALAR_START: "found character that cannot start any token",
  BAD_INDENT: "did not find expected key",
  MULTILINE_IMPLICIT_KEY: "could not find expected ':'",
  BAD_ALIAS: "unknown anchor referenced",
};

function failure(doc: Document.Parsed, lines: LineCounter): ParseFailure | undefined {
  const first = doc.errors[0];
  if (first === undefined) return undefined;
  const line = lines.linePos(first.pos[0]).line;
  let message = goYamlMessages[first.code] ?? "did not find expected node content";
  if (first.code === "MISSING_CHAR") {
    if (/quote|end of/i.test(first.message)) message = "found unexpected end of stream";
    else if (first.message.includes("}")) message = "did not find expected ',' or '}'";
    else if (first.message.includes("]")) message = "did not find expected ',' or ']'";
  }
  return { error: `yaml: line ${line}: ${message}` };
}

/** go-yaml's `%#v` of a key: strings quoted, numbers and booleans bare. */
function keyText(key: unknown): string {
  if (typeof key === "string") return goQuote(key);
  return key === null ? "<nil>" : String(key);
}

/**
 * `line N: key "k" already set in map` for each repeat, as go-yaml appends them: after the repeated
 * value's own contents, with the line where that value starts.
 */
function repeatedKeys(node: Node | null, lines: LineCounter, out: string[]): void {
  if (isSeq(node)) {
    for (const item of node.items) repeatedKeys(item as Node | null, lines, out);
    return;
  }
  if (!isMap(node)) return;
  const seen = new Set<string>();
  for (const pair of node.items) {
    const value = pair.value as Node | null;
    repeatedKeys(value, lines, out);
    if (!isScalar(pair.key)) continue;
    const key = pair.key.value;
    const identity = `${typeof key}:${String(key)}`;
    if (!seen.has(identity)) {
      seen.add(identity);
      continue;
    }
    const at = (value !== null && !isAlias(value) ? value.range?.[0] : undefined) ?? pair.key.range?.[0];
    out.push(`line ${lines.linePos(at ?? 0).line}: key ${keyText(key)} already set in map`);
  }
}

/** Sorted keys, as encoding a Go map writes them; a non-finite number cannot become JSON. */
function normalize(value: unknown): unknown {
  if (typeof value === "number" && !Number.isFinite(value)) {
    const text = Number.isNaN(value) ? "NaN" : value > 0 ? "+Inf" : "-Inf";
    throw new UnsupportedValue(`json: unsupported value: ${text}`);
  }
  if (Array.isArray(value)) return value.map(normalize);
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  const source = value as Record<string, unknown>;
  for (const key of Object.keys(source).sort()) out[key] = normalize(source[key]);
  return out;
}

class UnsupportedValue {
  constructor(readonly message: string) {}
}

/** Parses a YAML body, or says why it cannot be read in go-yaml's words. */
export function parseYaml(buf: Buffer): ParsedBody | ParseFailure {
  const lines = new LineCounter();
  const docs = parseAllDocuments(buf.toString("utf8"), {
    version: "1.1",
    merge: true,
    uniqueKeys: false,
    lineCounter: lines,
    customTags: goYamlTags,
  });
  const doc = Array.isArray(docs) ? docs[0] : undefined;
  if (doc === undefined) return { value: null, duplicates: [], duplicateKeys: new Map(), yamlDuplicates: [] };
  const failed = failure(doc, lines);
  if (failed !== undefined) return failed;
  const yamlDuplicates: string[] = [];
  repeatedKeys(doc.contents, lines, yamlDuplicates);
  try {
    const value = normalize(doc.toJS({ maxAliasCount: 100 }));
    return { value, duplicates: [], duplicateKeys: new Map(), yamlDuplicates };
  } catch (e) {
    if (e instanceof UnsupportedValue) return { error: e.message };
    // toJS refuses an alias expanding past maxAliasCount, as go-yaml refuses excessive aliasing.
    if (e instanceof ReferenceError) return { error: "yaml: document contains excessive aliasing" };
    throw e;
  }
}
