// cel-go's debug.ToAdornedDebugString: an expression tree printed one node per line with an
// adornment after each node — its kind (`^#*expr.Expr_IdentExpr#`, optionally with its id), or its
// checked type and reference (`~int^add_int64`). Tests compare these with cel-go's output, so the
// layout, literal formatting (Go's %v for doubles, strconv.Quote for strings) and kind names match.
import type { CheckedAst, ConstantValue, Expr, MapEntry, StructField } from "./ast.js";
import type { CelType } from "./cel-types.js";
import { CelUint } from "./values.js";

export type DebugNode = Expr | MapEntry | StructField;

/** The text printed after a node (and after each map entry or message field). */
export type DebugAdorner = (node: DebugNode) => string;

export function toDebugString(expr: Expr, adorner: DebugAdorner = () => ""): string {
  const writer = new DebugWriter(adorner);
  writer.expr(expr);
  return writer.text;
}

/** cel-go's kind adornment: `^#*expr.Constant_Int64Value#`. */
export const kindAdorner: DebugAdorner = (node) => `^#${nodeKind(node)}#`;

/** The kind adornment with the id, as in cel-go's parser tests: `^#1:*expr.Constant_Int64Value#`. */
export const kindAndIdAdorner: DebugAdorner = (node) => `^#${node.id}:${nodeKind(node)}#`;

/** Checked types (`~int`) and resolved references (`^name` or `^overload_a|overload_b`). */
export function checkedAdorner(ast: CheckedAst, formatType: (type: CelType) => string): DebugAdorner {
  return (node) => {
    if (!("kind" in node)) return "";
    const type = ast.types.get(node.id);
    let out = type === undefined ? "" : `~${formatType(type)}`;
    if (node.kind === "const" || node.kind === "map" || node.kind === "comprehension") return out;
    const ref = ast.references.get(node.id);
    // A typed identifier without a reference is a comprehension variable, which cel-go prints by name.
    if (ref === undefined) return node.kind === "ident" && type !== undefined ? `${out}^${node.name}` : out;
    const overloads = ref.overloadIds ?? [];
    out += overloads.length === 0 ? `^${ref.name ?? ""}` : `^${[...overloads].sort().join("|")}`;
    return out;
  };
}

function nodeKind(node: DebugNode): string {
  if (!("kind" in node)) return "*expr.Expr_CreateStruct_Entry";
  switch (node.kind) {
    case "const":
      return constantKind(node.value);
    case "ident":
      return "*expr.Expr_IdentExpr";
    case "select":
      return "*expr.Expr_SelectExpr";
    case "call":
      return "*expr.Expr_CallExpr";
    case "list":
      return "*expr.Expr_ListExpr";
    case "map":
    case "struct":
      return "*expr.Expr_StructExpr";
    case "comprehension":
      return "*expr.Expr_ComprehensionExpr";
  }
}

function constantKind(value: ConstantValue): string {
  if (value === null) return "*expr.Constant_NullValue";
  switch (typeof value) {
    case "boolean":
      return "*expr.Constant_BoolValue";
    case "bigint":
      return "*expr.Constant_Int64Value";
    case "number":
      return "*expr.Constant_DoubleValue";
    case "string":
      return "*expr.Constant_StringValue";
  }
  return value instanceof CelUint ? "*expr.Constant_Uint64Value" : "*expr.Constant_BytesValue";
}

class DebugWriter {
  text = "";
  private indent = 0;
  private lineStart = true;

  constructor(private readonly adorner: DebugAdorner) {}

  expr(e: Expr): void {
    switch (e.kind) {
      case "const":
        this.append(formatLiteral(e.value));
        break;
      case "ident":
        this.append(e.name);
        break;
      case "select":
        this.expr(e.operand);
        this.append(`.${e.field}`);
        if (e.testOnly) this.append("~test-only~");
        break;
      case "call":
        if (e.target !== undefined) {
          this.expr(e.target);
          this.append(".");
        }
        this.append(`${e.function}(`);
        this.block(e.args, (arg) => this.expr(arg));
        this.append(")");
        break;
      case "list":
        this.append("[");
        this.block(e.elements, (element) => this.expr(element));
        this.append("]");
        break;
      case "map":
        this.append("{");
        this.block(e.entries, (entry) => {
          if (entry.optional) this.append("?");
          this.expr(entry.key);
          this.append(":");
          this.expr(entry.value);
          this.append(this.adorner(entry));
        });
        this.append("}");
        break;
      case "struct":
        this.append(`${e.messageName}{`);
        this.block(e.fields, (field) => {
          this.append(`${field.optional ? "?" : ""}${field.field}:`);
          this.expr(field.value);
          this.append(this.adorner(field));
        });
        this.append("}");
        break;
      case "comprehension":
        this.append("__comprehension__(");
        this.indent++;
        this.line();
        this.append("// Variable");
        this.line();
        this.append(`${e.iterVar},`);
        this.line();
        if (e.iterVar2 !== undefined) {
          this.append(`${e.iterVar2},`);
          this.line();
        }
        this.section("Target", e.iterRange);
        this.append("// Accumulator");
        this.line();
        this.append(`${e.accuVar},`);
        this.line();
        this.section("Init", e.accuInit);
        this.section("LoopCondition", e.loopCondition);
        this.section("LoopStep", e.loopStep);
        this.append("// Result");
        this.line();
        this.expr(e.result);
        this.append(")");
        this.indent--;
        break;
    }
    this.append(this.adorner(e));
  }

  /** Items one per line, indented, separated by commas (nothing for none). */
  private block<I>(items: readonly I[], write: (item: I) => void): void {
    if (items.length === 0) return;
    this.indent++;
    this.line();
    items.forEach((item, i) => {
      if (i > 0) {
        this.append(",");
        this.line();
      }
      write(item);
    });
    this.indent--;
    this.line();
  }

  private section(title: string, e: Expr): void {
    this.append(`// ${title}`);
    this.line();
    this.expr(e);
    this.append(",");
    this.line();
  }

  private append(s: string): void {
    if (this.lineStart) {
      this.lineStart = false;
      this.text += "  ".repeat(this.indent);
    }
    this.text += s;
  }

  private line(): void {
    this.text += "\n";
    this.lineStart = true;
  }
}

/** A literal as cel-go prints it: Go's %v for doubles, strconv.Quote for strings and bytes. */
export function formatLiteral(value: ConstantValue): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "boolean":
    case "bigint":
      return String(value);
    case "number":
      return formatGoFloat(value);
    case "string":
      return quoteCodePoints(Array.from(value, (ch) => ch.codePointAt(0) as number));
  }
  return value instanceof CelUint ? `${value.value}u` : `b${quoteCodePoints(decodeUtf8(value))}`;
}

/** Go's %v for a float64: shortest digits, exponent form below 1e-4 and from 1e6 on (as %g decides). */
function formatGoFloat(v: number): string {
  if (Number.isNaN(v)) return "NaN";
  if (!Number.isFinite(v)) return v > 0 ? "+Inf" : "-Inf";
  if (v === 0) return Object.is(v, -0) ? "-0" : "0";
  const sign = v < 0 ? "-" : "";
  const [mantissa = "", exponent = "0"] = Math.abs(v).toExponential().split("e");
  const digits = mantissa.replace(".", "");
  const exp = Number(exponent);
  if (exp < -4 || exp >= 6) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const e = Math.abs(exp);
    return `${sign}${m}e${exp < 0 ? "-" : "+"}${e < 10 ? "0" : ""}${e}`;
  }
  if (exp < 0) return `${sign}0.${"0".repeat(-exp - 1)}${digits}`;
  if (digits.length <= exp + 1) return `${sign}${digits}${"0".repeat(exp + 1 - digits.length)}`;
  return `${sign}${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
}

/** Invalid UTF-8 bytes are returned as -1 - byte, so they print as \x escapes. */
function decodeUtf8(bytes: Uint8Array): number[] {
  const out: number[] = [];
  for (let i = 0; i < bytes.length; ) {
    const b0 = bytes[i] as number;
    const size =
      b0 < 0x80 ? 1 : b0 >= 0xc2 && b0 < 0xe0 ? 2 : b0 >= 0xe0 && b0 < 0xf0 ? 3 : b0 >= 0xf0 && b0 < 0xf5 ? 4 : 0;
    let cp = size === 1 ? b0 : size === 2 ? b0 & 0x1f : size === 3 ? b0 & 0x0f : b0 & 0x07;
    let valid = size > 0 && i + size <= bytes.length;
    for (let k = 1; valid && k < size; k++) {
      const b = bytes[i + k] as number;
      valid = (b & 0xc0) === 0x80;
      cp = (cp << 6) | (b & 0x3f);
    }
    const minimum = size === 3 ? 0x800 : size === 4 ? 0x10000 : 0;
    if (valid && cp >= minimum && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff)) {
      out.push(cp);
      i += size;
    } else {
      out.push(-1 - b0);
      i++;
    }
  }
  return out;
}

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;
const CONTROL_ESCAPES: ReadonlyMap<number, string> = new Map([
  [0x07, "\\a"],
  [0x08, "\\b"],
  [0x0c, "\\f"],
  [0x0a, "\\n"],
  [0x0d, "\\r"],
  [0x09, "\\t"],
  [0x0b, "\\v"],
]);

/** Go's strconv.Quote over code points (negative entries are raw bytes of invalid UTF-8). */
function quoteCodePoints(cps: readonly number[]): string {
  let out = '"';
  for (const cp of cps) {
    if (cp < 0) out += `\\x${(-1 - cp).toString(16).padStart(2, "0")}`;
    else if (cp === 0x22 || cp === 0x5c) out += `\\${String.fromCodePoint(cp)}`;
    else if (isGoPrintable(cp)) out += String.fromCodePoint(cp);
    else if (CONTROL_ESCAPES.has(cp)) out += CONTROL_ESCAPES.get(cp);
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${cp.toString(16).padStart(2, "0")}`;
    else if (cp < 0x10000) out += `\\u${cp.toString(16).padStart(4, "0")}`;
    else out += `\\U${cp.toString(16).padStart(8, "0")}`;
  }
  return `${out}"`;
}

/** Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
function isGoPrintable(cp: number): boolean {
  if (cp <= 0xff) return (cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa1 && cp !== 0xad);
  return !(cp >= 0xd800 && cp <= 0xdfff) && PRINTABLE.test(String.fromCodePoint(cp));
}
