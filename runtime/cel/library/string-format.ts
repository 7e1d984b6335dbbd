// cel-go's `<string>.format(<list>)`: printf-style clauses %s %d %f %e %b %x %X %o, with an optional
// precision (`%.3f`) and `%%` for a percent sign. Two generations exist. Strings library versions 1 to
// 3 (Kubernetes enables version 2) format as cel-go's formatting.go: %f and %e through an en_US number
// printer (digit grouping, `∞`, `× 10⁰³`), lists and maps as CEL literals. Version 4 on formats as
// formatting_v2.go, plain Go formatting, which is what the cel-spec conformance suite expects. The same
// clause parser checks literal format strings against the argument types at compile time (cel-go's
// string format validator).
import { goQuote } from "../../errors/go-format.js";
import type { CheckedAst, Expr } from "../common/ast.js";
import { type CelType, typeName } from "../common/cel-types.js";
import type { CelIssue } from "../common/issues.js";
import {
  CelDuration,
  CelError,
  CelList,
  CelMap,
  CelTimestamp,
  CelTypeValue,
  CelUint,
  type CelValue,
  INT64_MAX,
  typeOfValue,
} from "../common/values.js";
import { formatDuration } from "./standard/durations.js";
import { formatDouble, formatFixed } from "./standard/number-text.js";
import { formatTimestamp } from "./standard/standard-timestamps.js";
import { compareStrings, utf8Encode } from "./standard/text.js";

export type FormatGeneration = "v1" | "v2";

type Verb = "s" | "d" | "f" | "e" | "b" | "x" | "X" | "o";

interface Clause {
  readonly verb: Verb;
  /** Digits after the point for %f and %e; undefined when the clause gives none (6 is used). */
  readonly precision: number | undefined;
}

/** A failed clause: its message and, at check time, the argument expression to report it at. */
class FormatFailure {
  constructor(
    readonly message: string,
    readonly exprId?: number,
  ) {}
}

const DEFAULT_PRECISION = 6;
// Go would build a string of any precision; a bound keeps a rule from exhausting memory.
const MAX_PRECISION = 100_000;

/** Formats `format` with the arguments as the given generation does; a CelError carries cel-go's message. */
export function formatString(format: string, args: CelList, generation: FormatGeneration): string | CelError {
  const result = interpolate(format, args.size, true, (clause, index) =>
    formatArg(clause, args.get(index), generation),
  );
  return result instanceof FormatFailure ? new CelError(result.message) : result;
}

/**
 * Walks the format string: literal text is copied, `%%` is a percent sign, every other `%` takes the
 * next argument through `apply`. At run time a missing argument fails before its clause is read
 * (`strictArgs`), as cel-go's argument list does; the check-time list yields a placeholder instead.
 */
function interpolate(
  format: string,
  size: number,
  strictArgs: boolean,
  apply: (clause: Clause, index: number) => string | FormatFailure,
): string | FormatFailure {
  let out = "";
  let index = 0;
  let i = 0;
  while (i < format.length) {
    const pct = format.indexOf("%", i);
    if (pct < 0) {
      out += format.slice(i);
      break;
    }
    out += format.slice(i, pct);
    if (format[pct + 1] === "%") {
      out += "%";
      i = pct + 2;
      continue;
    }
    if (strictArgs && index >= size) return new FormatFailure(`index ${index} out of range`);
    if (pct + 1 >= format.length) return new FormatFailure("unexpected end of string");
    if (index >= size) return new FormatFailure(`index ${index} out of range`);
    const parsed = parseClause(format, pct + 1);
    if (typeof parsed === "string") return new FormatFailure(`could not parse formatting clause: ${parsed}`);
    const text = apply(parsed.clause, index);
    if (text instanceof FormatFailure) return text;
    out += text;
    i = parsed.end;
    index++;
  }
  return out;
}

function isDigit(ch: string | undefined): boolean {
  return ch !== undefined && ch >= "0" && ch <= "9";
}

/** The clause starting at `start` (just after `%`) and where it ends, or why it cannot be read. */
function parseClause(format: string, start: number): { clause: Clause; end: number } | string {
  let i = start;
  let precision: number | undefined;
  if (format[i] === ".") {
    const digitsStart = ++i;
    for (;;) {
      if (i >= format.length) return "error while parsing precision: could not find end of precision specifier";
      if (!isDigit(format[i])) break;
      i++;
    }
    const digits = format.slice(digitsStart, i);
    if (digits === "") {
      return 'error while parsing precision: error while converting precision to integer: strconv.Atoi: parsing "": invalid syntax';
    }
    if (BigInt(digits) > INT64_MAX) {
      return `error while parsing precision: error while converting precision to integer: strconv.Atoi: parsing "${digits}": value out of range`;
    }
    precision = Number(digits);
  }
  const ch = format[i] as string;
  switch (ch) {
    case "s":
    case "d":
    case "f":
    case "e":
    case "b":
    case "x":
    case "X":
    case "o":
      return { clause: { verb: ch, precision }, end: i + 1 };
    default:
      return `unrecognized formatting clause "${firstByteRune(format.codePointAt(i) as number)}"`;
  }
}

/** Go reads the clause letter as one byte: a non-ASCII letter shows as the rune of its first UTF-8 byte. */
function firstByteRune(cp: number): string {
  if (cp < 0x80) return String.fromCharCode(cp);
  if (cp < 0x800) return String.fromCharCode(0xc0 | (cp >> 6));
  if (cp < 0x10000) return String.fromCharCode(0xe0 | (cp >> 12));
  return String.fromCharCode(0xf0 | (cp >> 18));
}

// ---- Which argument kinds a clause accepts, and how each generation words a mismatch.

type ValueKind =
  | "int"
  | "uint"
  | "double"
  | "bool"
  | "string"
  | "bytes"
  | "list"
  | "map"
  | "timestamp"
  | "duration"
  | "type"
  | "null_type";

interface ClauseRule {
  readonly kinds: readonly ValueKind[];
  readonly message: string;
}

const STRING_KINDS: readonly ValueKind[] = [
  "list",
  "map",
  "int",
  "uint",
  "double",
  "bool",
  "string",
  "timestamp",
  "bytes",
  "duration",
  "type",
  "null_type",
];
const STRING_MESSAGE =
  "string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps";

const RULES: Record<FormatGeneration, Record<Exclude<Verb, "X">, ClauseRule>> = {
  v1: {
    s: { kinds: STRING_KINDS, message: STRING_MESSAGE },
    d: { kinds: ["int", "uint"], message: "decimal clause can only be used on integers" },
    f: { kinds: ["double", "string"], message: "fixed-point clause can only be used on doubles" },
    e: { kinds: ["double", "string"], message: "scientific clause can only be used on doubles" },
    b: { kinds: ["int", "uint", "bool"], message: "only integers and bools can be formatted as binary" },
    x: {
      kinds: ["int", "uint", "string", "bytes"],
      message: "only integers, byte buffers, and strings can be formatted as hex",
    },
    o: { kinds: ["int", "uint"], message: "octal clause can only be used on integers" },
  },
  v2: {
    s: { kinds: STRING_KINDS, message: STRING_MESSAGE },
    d: { kinds: ["int", "uint", "double"], message: "decimal clause can only be used on ints, uints, and doubles" },
    f: {
      kinds: ["int", "uint", "double"],
      message: "fixed-point clause can only be used on ints, uints, and doubles",
    },
    e: {
      kinds: ["int", "uint", "double"],
      message: "scientific clause can only be used on ints, uints, and doubles",
    },
    b: { kinds: ["bool", "int", "uint"], message: "only ints, uints, and bools can be formatted as binary" },
    x: {
      kinds: ["int", "uint", "string", "bytes"],
      message: "only ints, uints, bytes, and strings can be formatted as hex",
    },
    o: { kinds: ["int", "uint"], message: "octal clause can only be used on ints and uints" },
  },
};

function ruleOf(generation: FormatGeneration, verb: Verb): ClauseRule {
  return RULES[generation][verb === "X" ? "x" : verb];
}

function mismatch(rule: ClauseRule, given: string, exprId?: number): FormatFailure {
  return new FormatFailure(`error during formatting: ${rule.message}, was given ${given}`, exprId);
}

function kindOf(v: CelValue): ValueKind | undefined {
  switch (typeof v) {
    case "bigint":
      return "int";
    case "number":
      return "double";
    case "boolean":
      return "bool";
    case "string":
      return "string";
    default:
      if (v === null) return "null_type";
      if (v instanceof Uint8Array) return "bytes";
      if (v instanceof CelUint) return "uint";
      if (v instanceof CelList) return "list";
      if (v instanceof CelMap) return "map";
      if (v instanceof CelTimestamp) return "timestamp";
      if (v instanceof CelDuration) return "duration";
      if (v instanceof CelTypeValue) return "type";
      return undefined;
  }
}

function runtimeTypeName(v: CelValue): string {
  return typeName(typeOfValue(v));
}

// ---- Run time.

function formatArg(clause: Clause, v: CelValue, generation: FormatGeneration): string | FormatFailure {
  const rule = ruleOf(generation, clause.verb);
  const kind = kindOf(v);
  if (kind === undefined || !rule.kinds.includes(kind)) return mismatch(rule, runtimeTypeName(v));
  // Version 1 reads only these strings as doubles.
  if (kind === "string" && (clause.verb === "f" || clause.verb === "e") && !DOUBLE_WORDS.has(v as string)) {
    return mismatch(rule, "string");
  }
  const text = render(clause, v, generation);
  if (text instanceof FormatFailure) return new FormatFailure(`error during formatting: ${text.message}`);
  return text;
}

function render(clause: Clause, v: CelValue, generation: FormatGeneration): string | FormatFailure {
  switch (clause.verb) {
    case "s":
      return generation === "v1" ? literalText(v) : plainText(v);
    case "d":
      return typeof v === "number" ? plainDouble(v) : integerText(v, 10);
    case "f":
    case "e": {
      const precision = clause.precision ?? DEFAULT_PRECISION;
      if (precision > MAX_PRECISION) return new FormatFailure(`precision ${precision} is too large`);
      const x = toDouble(v);
      if (generation === "v1") return clause.verb === "f" ? localeFixed(x, precision) : localeScientific(x, precision);
      if (!Number.isFinite(x)) return plainDouble(x);
      return clause.verb === "f" ? goFixed(x, precision) : goScientific(x, precision);
    }
    case "b":
      return typeof v === "boolean" ? (v ? "1" : "0") : integerText(v, 2);
    case "x":
    case "X": {
      const hex = typeof v === "string" || v instanceof Uint8Array ? bytesHex(v) : integerText(v, 16);
      return clause.verb === "X" ? hex.toUpperCase() : hex;
    }
    case "o":
      return integerText(v, 8);
  }
}

const DOUBLE_WORDS = new Set(["NaN", "Infinity", "-Infinity"]);

function integerText(v: CelValue, radix: number): string {
  return (v instanceof CelUint ? v.value : (v as bigint)).toString(radix);
}

/** An int, a uint or a double as a double; the version 1 clauses also read "NaN", "Infinity" and "-Infinity". */
function toDouble(v: CelValue): number {
  if (typeof v === "number") return v;
  if (typeof v === "bigint") return Number(v);
  if (v instanceof CelUint) return Number(v.value);
  return Number(v);
}

function bytesHex(v: string | Uint8Array): string {
  const bytes = typeof v === "string" ? utf8Encode(v) : v;
  let out = "";
  for (const b of bytes) out += b.toString(16).padStart(2, "0");
  return out;
}

/** NaN and the infinities as formatting_v2.go spells them; other doubles with the shortest digits. */
function plainDouble(x: number): string {
  if (Number.isNaN(x)) return "NaN";
  if (x === Number.POSITIVE_INFINITY) return "Infinity";
  if (x === Number.NEGATIVE_INFINITY) return "-Infinity";
  return formatFixed(x);
}

/** formatting_v2.go's %s. */
function plainText(v: CelValue): string | FormatFailure {
  if (v instanceof CelList) return listText(v, plainText);
  if (v instanceof CelMap) return mapText(v, plainText, plainText, ": ");
  if (typeof v === "number") return plainDouble(v);
  return scalarText(v) ?? new FormatFailure(`${STRING_MESSAGE}, was given ${runtimeTypeName(v)}`);
}

type Render = (v: CelValue) => string | FormatFailure;

/** `[a, b]`, each element rendered. */
function listText(list: CelList, render: Render): string | FormatFailure {
  const parts: string[] = [];
  for (const item of list) {
    const text = render(item);
    if (text instanceof FormatFailure) return text;
    parts.push(text);
  }
  return `[${parts.join(", ")}]`;
}

/** `{k<separator>v, …}` in the order of the rendered keys (Go's byte order). */
function mapText(map: CelMap, renderKey: Render, renderValue: Render, separator: string): string | FormatFailure {
  const entries: [string, string][] = [];
  for (const [key, value] of map.entries()) {
    const k = renderKey(key);
    if (k instanceof FormatFailure) return k;
    const text = renderValue(value);
    if (text instanceof FormatFailure) return text;
    entries.push([k, text]);
  }
  entries.sort((x, y) => compareStrings(x[0], y[0]));
  return `{${entries.map(([k, text]) => `${k}${separator}${text}`).join(", ")}}`;
}

/** The text both generations give a scalar other than a double; undefined for values %s does not take. */
function scalarText(v: CelValue): string | undefined {
  switch (typeof v) {
    case "string":
      return v;
    case "boolean":
      return v ? "true" : "false";
    case "bigint":
      return v.toString();
    default:
      if (v === null) return "null";
      if (v instanceof CelUint) return v.value.toString();
      if (v instanceof Uint8Array) return new TextDecoder().decode(v);
      if (v instanceof CelTimestamp) return formatTimestamp(v);
      if (v instanceof CelDuration) return formatDuration(v);
      if (v instanceof CelTypeValue) return typeName(v.type);
      return undefined;
  }
}

/** formatting.go's FormatString (%s): scalars as string() converts them, lists and maps as CEL literals. */
function literalText(v: CelValue): string | FormatFailure {
  if (v instanceof CelList) return listText(v, literalMember);
  if (v instanceof CelMap) return mapText(v, literalKey, literalMember, ":");
  if (typeof v === "number") return formatDouble(v);
  return scalarText(v) ?? new FormatFailure(`${STRING_MESSAGE}, was given ${runtimeTypeName(v)}`);
}

/** formatting.go's clauseForType: how a list element or map value prints inside a literal. */
function literalMember(v: CelValue): string | FormatFailure {
  if (typeof v === "number") {
    const text = Number.isNaN(v) ? "NaN" : Number.isFinite(v) ? goFixed(v, DEFAULT_PRECISION) : v > 0 ? "+Inf" : "-Inf";
    return Number.isFinite(v) ? text : goQuote(text);
  }
  if (typeof v === "string") return goQuote(v);
  if (v instanceof Uint8Array) return `b${goQuote(scalarText(v) as string)}`;
  if (v instanceof CelTimestamp) return `timestamp(${goQuote(formatTimestamp(v))})`;
  if (v instanceof CelDuration) return `duration(${goQuote(formatDuration(v))})`;
  if (v instanceof CelList) return listText(v, literalMember);
  if (v instanceof CelMap) return mapText(v, literalKey, literalMember, ":");
  return scalarText(v) ?? new FormatFailure(`no formatting function for ${runtimeTypeName(v)}`);
}

/** A map key inside a literal: strings quoted, bools and integers as they are. */
function literalKey(key: CelValue): string | FormatFailure {
  const kind = kindOf(key);
  if (kind !== "string" && kind !== "bool" && kind !== "int" && kind !== "uint") {
    return new FormatFailure(`no formatting function for map key of type ${runtimeTypeName(key)}`);
  }
  return literalMember(key);
}

// ---- Exact decimal formatting of doubles, rounding halves to even as Go's strconv does.

interface Decimal {
  /** Significant digits without trailing zeros; empty for zero. */
  readonly digits: string;
  /** The value is 0.digits × 10^point. */
  readonly point: number;
}

/** The exact decimal value of a finite non-negative double. */
function exactDecimal(x: number): Decimal {
  if (x === 0) return { digits: "", point: 0 };
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const high = view.getUint32(0);
  const biased = (high >>> 20) & 0x7ff;
  let mantissa = (BigInt(high & 0xfffff) << 32n) | BigInt(view.getUint32(4));
  let exponent = -1074;
  if (biased !== 0) {
    mantissa |= 1n << 52n;
    exponent = biased - 1075;
  }
  const digits =
    exponent >= 0 ? (mantissa << BigInt(exponent)).toString() : (mantissa * 5n ** BigInt(-exponent)).toString();
  const point = exponent >= 0 ? digits.length : digits.length + exponent;
  return { digits: digits.replace(/0+$/, ""), point };
}

/** Keeps the first `keep` digits, rounding the rest away; an exact half goes to the even digit. */
function roundTo(d: Decimal, keep: number): Decimal {
  if (keep >= d.digits.length) return d;
  if (keep < 0) return { digits: "", point: d.point };
  const next = d.digits.charCodeAt(keep) - 48;
  const half = next === 5 && keep + 1 === d.digits.length;
  const prevOdd = keep > 0 && (d.digits.charCodeAt(keep - 1) - 48) % 2 === 1;
  const kept = d.digits.slice(0, keep);
  if (next < 5 || (half && !prevOdd)) return { digits: kept.replace(/0+$/, ""), point: d.point };
  if (kept === "") return { digits: "1", point: d.point + 1 };
  const raised = (BigInt(kept) + 1n).toString();
  return { digits: raised.replace(/0+$/, ""), point: raised.length > kept.length ? d.point + 1 : d.point };
}

function isNegative(x: number): boolean {
  return x < 0 || Object.is(x, -0);
}

/** Go's %.<precision>f of a finite double. */
function goFixed(x: number, precision: number): string {
  const exact = exactDecimal(Math.abs(x));
  const d = roundTo(exact, exact.point + precision);
  const whole = d.point <= 0 ? "0" : d.digits.slice(0, d.point).padEnd(d.point, "0");
  let fraction = "";
  for (let k = 0; k < precision; k++) {
    const at = d.point + k;
    fraction += at < 0 ? "0" : (d.digits[at] ?? "0");
  }
  return `${isNegative(x) ? "-" : ""}${whole}${precision > 0 ? `.${fraction}` : ""}`;
}

/** The mantissa digits (d.ddd) and decimal exponent of a finite double rounded to `precision` decimals. */
function scientificParts(x: number, precision: number): { mantissa: string; exponent: number } {
  const d = x === 0 ? { digits: "", point: 1 } : roundTo(exactDecimal(Math.abs(x)), precision + 1);
  const digits = d.digits.padEnd(precision + 1, "0");
  const mantissa = precision > 0 ? `${digits[0]}.${digits.slice(1)}` : digits;
  return { mantissa: `${isNegative(x) ? "-" : ""}${mantissa}`, exponent: d.point - 1 };
}

/** Go's %.<precision>e of a finite double: at least two exponent digits. */
function goScientific(x: number, precision: number): string {
  const { mantissa, exponent } = scientificParts(x, precision);
  return `${mantissa}e${exponent < 0 ? "-" : "+"}${String(Math.abs(exponent)).padStart(2, "0")}`;
}

function localeSpecial(x: number): string | undefined {
  if (Number.isNaN(x)) return "NaN";
  if (x === Number.POSITIVE_INFINITY) return "∞";
  if (x === Number.NEGATIVE_INFINITY) return "-∞";
  return undefined;
}

/** x/text's en_US %f: Go's digits with the integer part grouped by thousands. */
function localeFixed(x: number, precision: number): string {
  const special = localeSpecial(x);
  if (special !== undefined) return special;
  const text = goFixed(x, precision);
  const sign = text.startsWith("-") ? "-" : "";
  const point = text.indexOf(".");
  const whole = text.slice(sign.length, point < 0 ? text.length : point);
  const grouped = whole.replace(/\B(?=(\d{3})+$)/g, ",");
  return `${sign}${grouped}${point < 0 ? "" : text.slice(point)}`;
}

const SUPERSCRIPT_DIGITS = "⁰¹²³⁴⁵⁶⁷⁸⁹";

/** x/text's en_US %e: `2.718280 × 10⁰⁰` with narrow no-break spaces and a two-digit superscript exponent. */
function localeScientific(x: number, precision: number): string {
  const special = localeSpecial(x);
  if (special !== undefined) return special;
  const { mantissa, exponent } = scientificParts(x, precision);
  const digits = String(Math.abs(exponent)).padStart(2, "0");
  let power = exponent < 0 ? "⁻" : "";
  for (const digit of digits) power += SUPERSCRIPT_DIGITS[Number(digit)];
  return `${mantissa}\u202f×\u202f10${power}`;
}

// ---- Compile-time checking of literal format strings.

/** cel-go's string format validator: issues for `"<literal>".format([<list literal>])` calls. */
export function checkFormatCalls(ast: CheckedAst, generation: FormatGeneration): CelIssue[] {
  const issues: CelIssue[] = [];
  const report = (message: string, exprId: number): void => {
    issues.push({ message, offset: ast.sourceInfo.positions.get(exprId) ?? -1, exprId });
  };
  visit(ast.expr, (e) => {
    if (e.kind !== "call" || e.function !== "format" || e.target?.kind !== "const" || e.args.length !== 1) return;
    const format = e.target.value;
    const list = e.args[0] as Expr;
    if (typeof format !== "string" || list.kind !== "list") return;
    const overloads = ast.references.get(e.id)?.overloadIds ?? [];
    if (overloads.length > 0 && !overloads.includes("string_format")) return;
    let requested = 0;
    const result = interpolate(format, list.elements.length, false, (clause, index) => {
      requested++;
      return checkArg(ast, clause, list.elements[index] as Expr, generation);
    });
    if (result instanceof FormatFailure) report(result.message, result.exprId ?? e.id);
    else if (list.elements.length > requested) {
      report(`too many arguments supplied to string.format (expected ${requested}, got ${list.elements.length})`, e.id);
    }
  });
  return issues;
}

function checkArg(ast: CheckedAst, clause: Clause, arg: Expr, generation: FormatGeneration): string | FormatFailure {
  const rule = ruleOf(generation, clause.verb);
  const bad = clause.verb === "s" ? stringArgMismatch(ast, arg) : typeMismatch(ast, arg, rule.kinds);
  return bad === undefined ? "" : mismatch(rule, typeName(typeOfExpr(ast, bad)), bad.id);
}

function typeOfExpr(ast: CheckedAst, e: Expr): CelType {
  return ast.types.get(e.id) ?? { kind: "dyn" };
}

function typeMismatch(ast: CheckedAst, e: Expr, kinds: readonly ValueKind[]): Expr | undefined {
  const kind = typeOfExpr(ast, e).kind;
  return kind === "dyn" || (kinds as readonly string[]).includes(kind) ? undefined : e;
}

/** The first expression %s cannot print, looking into list and map literals. */
function stringArgMismatch(ast: CheckedAst, e: Expr): Expr | undefined {
  const bad = typeMismatch(ast, e, STRING_KINDS);
  if (bad !== undefined) return bad;
  if (e.kind === "list") {
    for (const item of e.elements) {
      const found = stringArgMismatch(ast, item);
      if (found !== undefined) return found;
    }
  } else if (e.kind === "map") {
    for (const entry of e.entries) {
      const found = stringArgMismatch(ast, entry.key) ?? stringArgMismatch(ast, entry.value);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

function visit(e: Expr, fn: (e: Expr) => void): void {
  fn(e);
  switch (e.kind) {
    case "select":
      visit(e.operand, fn);
      return;
    case "call":
      if (e.target) visit(e.target, fn);
      for (const a of e.args) visit(a, fn);
      return;
    case "list":
      for (const a of e.elements) visit(a, fn);
      return;
    case "map":
      for (const entry of e.entries) {
        visit(entry.key, fn);
        visit(entry.value, fn);
      }
      return;
    case "struct":
      for (const f of e.fields) visit(f.value, fn);
      return;
    case "comprehension":
      for (const part of [e.iterRange, e.accuInit, e.loopCondition, e.loopStep, e.result]) visit(part, fn);
      return;
    default:
      return;
  }
}
