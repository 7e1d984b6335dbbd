// What a YAML scalar means to go-yaml v2 when decoded into interface{}: its resolve() table and number
// parsing (YAML 1.1 booleans such as yes and off, Go's integer syntax with 0x, 0o, 0b and leading-zero
// octals, underscores dropped, floats only in YAML's decimal form), explicit tags checked against what the
// text resolves to, !!binary decoded, and timestamps left as the text they are.
import { base64ErrorOffset } from "../go-base64.js";
import { YamlDecodeError } from "./yaml-error.js";

export const yamlTags = {
  str: "tag:yaml.org,2002:str",
  bool: "tag:yaml.org,2002:bool",
  int: "tag:yaml.org,2002:int",
  float: "tag:yaml.org,2002:float",
  null: "tag:yaml.org,2002:null",
  timestamp: "tag:yaml.org,2002:timestamp",
  binary: "tag:yaml.org,2002:binary",
  merge: "tag:yaml.org,2002:merge",
} as const;

/** A decoded scalar with its Go type, which map keys need (1 and "1" are different keys). */
export type GoScalar =
  | { type: "null"; value: null }
  | { type: "bool"; value: boolean }
  /** int, and uint64 for values past int64 (which no JSON map key may have). */
  | { type: "int" | "uint"; value: bigint }
  | { type: "float"; value: number }
  | { type: "string"; value: string };

const resolveTable: ReadonlyMap<string, GoScalar> = new Map<string, GoScalar>([
  ...["y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"].map(
    (s) => [s, { type: "bool", value: true }] as const,
  ),
  ...["n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"].map(
    (s) => [s, { type: "bool", value: false }] as const,
  ),
  ...["", "~", "null", "Null", "NULL"].map((s) => [s, { type: "null", value: null }] as const),
  ...[".nan", ".NaN", ".NAN"].map((s) => [s, { type: "float", value: Number.NaN }] as const),
  ...[".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF"].map(
    (s) => [s, { type: "float", value: Number.POSITIVE_INFINITY }] as const,
  ),
  ...["-.inf", "-.Inf", "-.INF"].map((s) => [s, { type: "float", value: Number.NEGATIVE_INFINITY }] as const),
]);

const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;
const uint64Max = 2n ** 64n - 1n;

/** Go's base prefixes (any case), BigInt's spelling of each, and the digits each allows. */
const basePrefixes: Readonly<Record<string, [string, RegExp]>> = {
  "0x": ["0x", /^[0-9a-fA-F]+$/],
  "0o": ["0o", /^[0-7]+$/],
  "0b": ["0b", /^[01]+$/],
};

/** strconv.ParseInt or ParseUint with base 0: a sign (signed only), 0x, 0o, 0b or a leading 0 for octal. */
function parseGoInteger(s: string, signed: boolean): bigint | undefined {
  let digits = s;
  let negative = false;
  if (signed && (digits.startsWith("-") || digits.startsWith("+"))) {
    negative = digits.startsWith("-");
    digits = digits.slice(1);
  }
  let [literal, valid] = basePrefixes[digits.slice(0, 2).toLowerCase()] ?? ["", /^[0-9]+$/];
  if (literal !== "") digits = digits.slice(2);
  else if (digits.length > 1 && digits.startsWith("0")) [literal, valid, digits] = ["0o", /^[0-7]+$/, digits.slice(1)];
  if (!valid.test(digits)) return undefined;
  const magnitude = BigInt(literal + digits);
  const value = negative ? -magnitude : magnitude;
  if (signed ? value < int64Min || value > int64Max : value > uint64Max) return undefined;
  return value;
}

/** Go's underscoreOK: underscores only between digits (or after a base prefix). */
function underscoresOk(s: string): boolean {
  return !/(^|[^0-9])_|_($|[^0-9])/.test(s.replace(/^[-+]?0[xXoObB]/, "0"));
}

const yamlStyleFloat = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;

/** strconv.ParseFloat of a decimal float; out of range counts as failure, as go-yaml checks the error. */
function parseGoFloat(s: string): number | undefined {
  if (s.includes("_") && !underscoresOk(s)) return undefined;
  const plain = s.replace(/_/g, "");
  if (!yamlStyleFloat.test(plain)) return undefined;
  const value = Number(plain);
  return Number.isFinite(value) ? value : undefined;
}

/** go-yaml's four timestamp layouts: a date, then a time after `T` with a zone or after a space without. */
const timestampLayouts = [
  /^(\d{4})-(\d{1,2})-(\d{1,2})$/,
  /^(\d{4})-(\d{1,2})-(\d{1,2})[Tt](\d{1,2}):(\d{1,2}):(\d{1,2})(?:[.,]\d+)?(?:Z|[+-](\d{2}):(\d{2}))$/,
  /^(\d{4})-(\d{1,2})-(\d{1,2}) (\d{1,2}):(\d{1,2}):(\d{1,2})(?:[.,]\d+)?$/,
];

/** go-yaml's parseTimestamp: one of its layouts, with time.Parse's range checks on each field. */
function isTimestamp(s: string): boolean {
  if (s.charAt(4) !== "-") return false;
  for (const layout of timestampLayouts) {
    const m = layout.exec(s);
    if (m === null) continue;
    const field = (i: number) => Number(m[i] ?? 0);
    const [year, month, day] = [field(1), field(2), field(3)];
    const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
    const days = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
    if (month < 1 || month > 12 || day < 1 || day > days) return false;
    // Hours, minutes, seconds, and the zone's hours and minutes (zero where absent).
    return field(4) < 24 && field(5) < 60 && field(6) < 60 && field(7) <= 24 && field(8) <= 60;
  }
  return false;
}

function shortTag(tag: string): string {
  return tag.startsWith("tag:yaml.org,2002:") ? `!!${tag.slice("tag:yaml.org,2002:".length)}` : tag;
}

/** The plain text's meaning without a tag, and the tag it resolved to. */
function resolvePlain(text: string, allowTimestamp: boolean): [string, GoScalar] {
  const known = resolveTable.get(text);
  if (known !== undefined) return [tagOf(known), known];
  const first = text.charAt(0);
  if (first === ".") {
    const value = parseGoFloat(text);
    if (value !== undefined) return [yamlTags.float, { type: "float", value }];
  } else if (/[-+0-9]/.test(first)) {
    if (allowTimestamp && isTimestamp(text)) return [yamlTags.timestamp, { type: "string", value: text }];
    const plain = text.replace(/_/g, "");
    const int = parseGoInteger(plain, true);
    if (int !== undefined) return [yamlTags.int, { type: "int", value: int }];
    const uint = parseGoInteger(plain, false);
    if (uint !== undefined) return [yamlTags.int, { type: "uint", value: uint }];
    const float = yamlStyleFloat.test(plain) ? parseGoFloat(plain) : undefined;
    if (float !== undefined) return [yamlTags.float, { type: "float", value: float }];
  }
  return [yamlTags.str, { type: "string", value: text }];
}

function tagOf(scalar: GoScalar): string {
  switch (scalar.type) {
    case "null":
      return yamlTags.null;
    case "bool":
      return yamlTags.bool;
    case "float":
      return yamlTags.float;
    case "int":
    case "uint":
      return yamlTags.int;
    default:
      return yamlTags.str;
  }
}

/** The tags whose scalars must resolve to their type; !!str and unknown tags take the text as it is. */
const resolvable = new Set<string>([
  "",
  yamlTags.bool,
  yamlTags.int,
  yamlTags.float,
  yamlTags.null,
  yamlTags.timestamp,
]);

/**
 * A scalar node's value as go-yaml decodes it into interface{}: `tag` is the node's tag ("" for none),
 * `implicit` whether a plain scalar's type comes from its text (quoted scalars without a tag are strings).
 */
export function resolveScalar(tag: string, text: string, implicit: boolean): GoScalar {
  if (tag === "" && !implicit) return { type: "string", value: text };
  if (tag === yamlTags.binary) return { type: "string", value: decodeBinary(text) };
  if (!resolvable.has(tag)) return { type: "string", value: text };
  const [resolved, value] = resolvePlain(text, tag === "" || tag === yamlTags.timestamp);
  if (tag === "" || tag === resolved) return value;
  if (tag === yamlTags.float && value.type === "int") return { type: "float", value: Number(value.value) };
  throw new YamlDecodeError(`yaml: cannot decode ${shortTag(resolved)} \`${text}\` as a ${shortTag(tag)}`);
}

/** !!binary: standard base64 (line breaks ignored), the bytes read as text. */
function decodeBinary(text: string): string {
  const base64 = text.replace(/[\r\n]/g, "");
  if (base64ErrorOffset(base64) !== undefined) {
    throw new YamlDecodeError("yaml: !!binary value contains invalid base64 data");
  }
  return Buffer.from(base64, "base64").toString("utf8");
}
