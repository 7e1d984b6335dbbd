// Turns the syntax tree into the Expr tree as cel-go's parser visitor does: expression ids in the
// order its visitor allocates them (operands before their operator's id, `&&`/`||` chains balanced),
// positions, literal values, macro expansion, and the errors found on the way (reserved identifiers,
// invalid literals, optional or escaped syntax not enabled, misused macros, nesting too deep).
import type { CallExpr, Expr, MapEntry, StructField } from "../common/ast.js";
import { type MacroDecl, MacroError, macroKey } from "../common/decls.js";
import type { CelIssue } from "../common/issues.js";
import { CelUint, INT64_MAX, INT64_MIN, UINT64_MAX } from "../common/values.js";
import type { SourceText } from "./lexer.js";
import { type IdAllocator, ParserMacroHelper } from "./macro-helper.js";
import type {
  BinarySyntax,
  CallSyntax,
  IndexSyntax,
  ListSyntax,
  LiteralSyntax,
  LogicalSyntax,
  MapSyntax,
  MemberCallSyntax,
  MessageSyntax,
  SelectSyntax,
  Syntax,
  TernarySyntax,
} from "./syntax.js";
import { T, type Token } from "./tokens.js";
import { unescapeLiteral } from "./unescape.js";

export interface BuildOptions {
  readonly macros: ReadonlyMap<string, MacroDecl>;
  readonly enableOptionalSyntax: boolean;
  readonly enableIdentEscapeSyntax: boolean;
  /** Deepest nesting of operators, selections, calls on a receiver and indexing. */
  readonly maxRecursionDepth: number;
}

/** Words CEL reserves: not usable as identifiers or function names (they are as field names). */
const RESERVED_IDS = new Set([
  "as",
  "break",
  "const",
  "continue",
  "else",
  "false",
  "for",
  "function",
  "if",
  "import",
  "in",
  "let",
  "loop",
  "package",
  "namespace",
  "null",
  "return",
  "true",
  "var",
  "void",
  "while",
]);

const macroNameCache = new WeakMap<ReadonlyMap<string, MacroDecl>, ReadonlySet<string>>();

/** The names of an environment's macros, so most calls skip building lookup keys. */
function macroNames(macros: ReadonlyMap<string, MacroDecl>): ReadonlySet<string> {
  let names = macroNameCache.get(macros);
  if (names === undefined) {
    names = new Set([...macros.values()].map((m) => m.name));
    macroNameCache.set(macros, names);
  }
  return names;
}

/** Thrown when the tree is nested deeper than maxRecursionDepth. */
export class NestingTooDeep {}

export class ExprBuilder implements IdAllocator {
  readonly positions = new Map<number, number>();
  readonly macroCalls = new Map<number, Expr>();
  readonly issues: CelIssue[] = [];
  private nextId = 1;
  private depth = 0;

  constructor(
    private readonly source: SourceText,
    private readonly options: BuildOptions,
  ) {}

  newId(offset: number): number {
    const id = this.nextId++;
    if (offset >= 0) this.positions.set(id, offset);
    return id;
  }

  positionOf(id: number): number | undefined {
    return this.positions.get(id);
  }

  build(node: Syntax): Expr {
    switch (node.k) {
      case "error":
        return this.placeholder(node.at);
      case "literal":
        return this.literal(node);
      case "ident": {
        const start = (node.leadingDot ?? node.name).start;
        const name = this.text(node.name);
        if (RESERVED_IDS.has(name)) return this.error(start, `reserved identifier: ${name}`);
        return { kind: "ident", id: this.newId(node.name.start), name: node.leadingDot ? `.${name}` : name };
      }
      case "call":
        return this.globalCall(node);
      case "list":
        return this.list(node);
      case "map":
        return this.map(node);
      case "message":
        return this.message(node);
      case "logical":
        return this.logical(node);
      case "unary": {
        if (node.ops.length % 2 === 0) return this.build(node.operand);
        const id = this.newId((node.ops[0] as Token).start);
        return this.callOrMacro(id, node.fn, undefined, [this.build(node.operand)]);
      }
      default:
        return this.nested(node);
    }
  }

  /** The nodes cel-go counts towards its maximum recursion depth. */
  private nested(node: TernarySyntax | BinarySyntax | SelectSyntax | MemberCallSyntax | IndexSyntax): Expr {
    if (++this.depth > this.options.maxRecursionDepth) throw new NestingTooDeep();
    let expr: Expr;
    switch (node.k) {
      case "ternary": {
        const cond = this.build(node.cond);
        const id = this.newId(node.op.start);
        const then = this.build(node.then);
        expr = this.callOrMacro(id, "_?_:_", undefined, [cond, then, this.build(node.otherwise)]);
        break;
      }
      case "binary": {
        const lhs = this.build(node.lhs);
        const id = this.newId(node.op.start);
        expr = this.callOrMacro(id, node.fn, undefined, [lhs, this.build(node.rhs)]);
        break;
      }
      case "select":
        expr = this.select(node);
        break;
      case "memberCall": {
        const target = this.build(node.operand);
        const id = this.newId(node.open.start);
        const args = node.args.map((a) => this.build(a));
        expr = this.callOrMacro(id, this.text(node.name), target, args);
        break;
      }
      case "index": {
        const target = this.build(node.operand);
        const id = this.newId(node.open.start);
        const index = this.build(node.index);
        if (node.opt !== undefined && !this.options.enableOptionalSyntax)
          expr = this.error(node.open.start, "unsupported syntax '[?'");
        else expr = this.callOrMacro(id, node.opt === undefined ? "_[_]" : "_[?_]", undefined, [target, index]);
        break;
      }
    }
    this.depth--;
    return expr;
  }

  private select(node: SelectSyntax): Expr {
    const operand = this.build(node.operand);
    if (node.field === undefined) return this.placeholder(node.dot.start);
    const field = this.fieldName(node.field);
    if (node.opt !== undefined) {
      if (!this.options.enableOptionalSyntax) return this.error(node.dot.start, "unsupported syntax '.?'");
      const name: Expr = { kind: "const", id: this.newId(node.field.start), value: field };
      return { kind: "call", id: this.newId(node.dot.start), function: "_?._", args: [operand, name] };
    }
    return { kind: "select", id: this.newId(node.dot.start), operand, field, testOnly: false };
  }

  private globalCall(node: CallSyntax): Expr {
    const name = this.text(node.name);
    if (RESERVED_IDS.has(name)) return this.error((node.leadingDot ?? node.name).start, `reserved identifier: ${name}`);
    const id = this.newId(node.open.start);
    const args = node.args.map((a) => this.build(a));
    return this.callOrMacro(id, node.leadingDot ? `.${name}` : name, undefined, args);
  }

  /** `a || b || c …` as a balanced tree (cel-go keeps long chains shallow this way). */
  private logical(node: LogicalSyntax): Expr {
    const terms = [this.build(node.terms[0] as Syntax)];
    const ids: number[] = [];
    for (let i = 1; i < node.terms.length; i++) {
      terms.push(this.build(node.terms[i] as Syntax));
      ids.push(this.newId((node.ops[i - 1] as Token).start));
    }
    return balance(node.fn, terms, ids, 0, ids.length - 1);
  }

  private list(node: ListSyntax): Expr {
    const id = this.newId(node.open.start);
    const elements: Expr[] = [];
    const optionalIndices: number[] = [];
    node.elements.forEach((element, i) => {
      elements.push(this.build(element.value));
      if (element.opt === undefined) return;
      if (this.options.enableOptionalSyntax) optionalIndices.push(i);
      else this.error(element.opt.start, "unsupported syntax '?'");
    });
    return { kind: "list", id, elements, optionalIndices };
  }

  private map(node: MapSyntax): Expr {
    const id = this.newId(node.open.start);
    const entries: MapEntry[] = [];
    for (const entry of node.entries) {
      const entryId = this.newId(entry.colon.start);
      if (entry.opt !== undefined && !this.options.enableOptionalSyntax) {
        this.error(entry.opt.start, "unsupported syntax '?'");
        continue;
      }
      const key = this.build(entry.key);
      entries.push({ id: entryId, key, value: this.build(entry.value), optional: entry.opt !== undefined });
    }
    return { kind: "map", id, entries };
  }

  private message(node: MessageSyntax): Expr {
    const name = node.names.map((n) => this.text(n)).join(".");
    const id = this.newId(node.open.start);
    const fields: StructField[] = [];
    const messageName = node.leadingDot ? `.${name}` : name;
    for (const field of node.fields) {
      // After a syntax error inside a field, cel-go's visitor keeps no fields.
      if (field.colon === undefined || field.value === undefined)
        return { kind: "struct", id, messageName, fields: [] };
      const fieldId = this.newId(field.colon.start);
      if (field.opt !== undefined && !this.options.enableOptionalSyntax) {
        this.error(field.opt.start, "unsupported syntax '?'");
        continue;
      }
      if (field.name === undefined) return { kind: "struct", id, messageName, fields: [] };
      const fieldName = this.fieldName(field.name);
      fields.push({ id: fieldId, field: fieldName, value: this.build(field.value), optional: field.opt !== undefined });
    }
    return { kind: "struct", id, messageName, fields };
  }

  private literal(node: LiteralSyntax): Expr {
    const token = node.token;
    const start = (node.sign ?? token).start;
    const text = this.text(token);
    const sign = node.sign === undefined ? "" : "-";
    switch (token.type) {
      case T.NUM_INT: {
        const value = parseInteger(sign, text);
        if (value < INT64_MIN || value > INT64_MAX) return this.error(start, "invalid int literal");
        return { kind: "const", id: this.newId(start), value };
      }
      case T.NUM_UINT: {
        const value = parseInteger("", text.slice(0, -1));
        if (value > UINT64_MAX) return this.error(start, "invalid uint literal");
        return { kind: "const", id: this.newId(start), value: new CelUint(value) };
      }
      case T.NUM_FLOAT: {
        const value = Number(sign + text);
        if (!Number.isFinite(value)) return this.error(start, "invalid double literal");
        return { kind: "const", id: this.newId(start), value };
      }
      case T.STRING:
      case T.BYTES: {
        const decoded = unescapeLiteral(token.type === T.BYTES ? text.slice(1) : text, token.type === T.BYTES);
        if ("error" in decoded) return this.error(start, decoded.error);
        return { kind: "const", id: this.newId(start), value: decoded.value };
      }
      case T.TRUE:
      case T.FALSE:
        return { kind: "const", id: this.newId(start), value: token.type === T.TRUE };
      default:
        return { kind: "const", id: this.newId(start), value: null };
    }
  }

  /** A field name; a backquoted name only with identifier escapes enabled. */
  private fieldName(token: Token): string {
    if (token.type !== T.ESC_IDENTIFIER) return this.text(token);
    if (!this.options.enableIdentEscapeSyntax) this.error(token.start, "unsupported syntax: '`'");
    return this.source.slice(token.start + 1, token.end - 1);
  }

  private callOrMacro(id: number, fn: string, target: Expr | undefined, args: Expr[]): Expr {
    const call: CallExpr =
      target === undefined
        ? { kind: "call", id, function: fn, args }
        : { kind: "call", id, target, function: fn, args };
    return this.expandMacro(call) ?? call;
  }

  private expandMacro(call: CallExpr): Expr | undefined {
    const macros = this.options.macros;
    if (!macroNames(macros).has(call.function)) return undefined;
    const member = call.target !== undefined;
    const macro =
      macros.get(macroKey(call.function, member, call.args.length)) ??
      macros.get(macroKey(call.function, member, undefined));
    if (macro === undefined) return undefined;
    let expansion: Expr | undefined;
    try {
      expansion = macro.expand(new ParserMacroHelper(this, call.id), call.target, call.args, call);
    } catch (e) {
      if (!(e instanceof MacroError)) throw e;
      const offset = this.positions.get(e.at.id) ?? this.positions.get(call.id) ?? -1;
      this.positions.delete(call.id);
      return this.error(offset, e.message);
    }
    if (expansion === undefined) return undefined;
    this.macroCalls.set(expansion.id, call);
    this.positions.delete(call.id);
    return expansion;
  }

  /** Reports an error and returns a placeholder for the expression that could not be built. */
  private error(offset: number, message: string): Expr {
    const expr = this.placeholder(offset);
    this.issues.push({ message, offset, exprId: expr.id });
    return expr;
  }

  private placeholder(offset: number): Expr {
    return { kind: "const", id: this.newId(offset), value: null };
  }

  private text(token: Token): string {
    return this.source.slice(token.start, token.end);
  }
}

/** The terms between ops[lo] and ops[hi], split at the middle operator. */
function balance(fn: string, terms: readonly Expr[], ids: readonly number[], lo: number, hi: number): Expr {
  const mid = (lo + hi + 1) >> 1;
  const left = mid === lo ? (terms[mid] as Expr) : balance(fn, terms, ids, lo, mid - 1);
  const right = mid === hi ? (terms[mid + 1] as Expr) : balance(fn, terms, ids, mid + 1, hi);
  return { kind: "call", id: ids[mid] as number, function: fn, args: [left, right] };
}

/** A decimal or `0x` hexadecimal integer literal with an optional minus sign. */
function parseInteger(sign: string, text: string): bigint {
  const value = BigInt(text);
  return sign === "" ? value : -value;
}
