// The JSONPath dialect of kubectl and of printer columns (client-go's util/jsonpath), for one `{…}` action:
// `.field` (`\.` escapes a dot), `..field`, `.*`, `[n]`, `[a:b:c]`, `[*]`, `['key']`, `[a,b]`, and filters
// `[?(@.type=="Ready")]` with ==, !=, <, >, <=, >= or bare existence. Missing keys yield nothing, as printer
// columns evaluate with AllowMissingKeys; what client-go reports as an error throws a JsonPathError.
import { goNumber } from "../errors/go-format.js";
import { isJsonObject } from "../object/json-object.js";
import { goJsonText } from "./json-tree.js";

export class JsonPathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "JsonPathError";
  }
}

interface SliceParam {
  known: boolean;
  value: number;
  derived?: boolean;
}

type PathNode =
  | { type: "field"; name: string }
  | { type: "wildcard" }
  | { type: "recursive" }
  | { type: "array"; params: [SliceParam, SliceParam, SliceParam] }
  | { type: "union"; branches: PathNode[][] }
  | { type: "filter"; left: PathNode[]; right: PathNode[]; operator: string }
  | { type: "constant"; value: string | number | boolean };

export interface JsonPath {
  readonly source: string;
  readonly nodes: readonly PathNode[];
}

const TERMINATORS = new Set([" ", "\t", "\r", "\n", ".", ",", "[", "]", "$", "@", "{", "}"]);
const SLICE = /^(-?\d*)(:-?\d*)?(:-?\d*)?$/;
const DICT_KEY = /^'([^']*)'$/;
const FILTER = /^([^!<>=]+)([!<>=]+)(.+?)$/;

class Parser {
  private pos = 0;
  readonly nodes: PathNode[] = [];

  constructor(private readonly input: string) {}

  parse(): PathNode[] {
    while (this.pos < this.input.length) this.step();
    return this.nodes;
  }

  private step(): void {
    const rest = this.input.slice(this.pos);
    const r = this.input[this.pos] as string;
    if (rest.startsWith("[?(")) this.filter();
    else if (rest.startsWith("..")) this.recursive();
    else if (r === "\r" || r === "\n") throw new JsonPathError("unclosed action");
    else if (r === " " || r === "@" || r === "$") this.pos++;
    else if (r === "[") this.array();
    else if (r === '"' || r === "'") this.quoted(r);
    else if (r === ".") {
      this.pos++;
      this.field();
    } else if (r === "+" || r === "-" || /\d/.test(r)) this.number();
    else if (/[\p{L}\p{Nd}_]/u.test(r)) this.identifier();
    else throw new JsonPathError(`unrecognized character in action: ${JSON.stringify(r)}`);
  }

  private recursive(): void {
    if (this.nodes.at(-1)?.type === "recursive") throw new JsonPathError("invalid multiple recursive descent");
    this.pos += 2;
    this.nodes.push({ type: "recursive" });
    if (/^[\p{L}\p{Nd}_]/u.test(this.input.slice(this.pos))) this.field();
  }

  private field(): void {
    let name = "";
    while (this.pos < this.input.length) {
      const r = this.input[this.pos] as string;
      if (r === "\\") {
        name += this.input[this.pos + 1] ?? "";
        this.pos += 2;
        continue;
      }
      if (TERMINATORS.has(r)) break;
      name += r;
      this.pos++;
    }
    this.nodes.push(name === "*" ? { type: "wildcard" } : { type: "field", name });
  }

  private array(): void {
    const end = this.input.indexOf("]", this.pos);
    const newline = this.input.indexOf("\n", this.pos);
    if (end < 0 || (newline >= 0 && newline < end)) throw new JsonPathError("unterminated array");
    let text = this.input.slice(this.pos + 1, end);
    this.pos = end + 1;
    if (text === "*") text = ":";
    const parts = text.split(",");
    if (parts.length > 1) {
      this.nodes.push({ type: "union", branches: parts.map((p) => new Parser(`[${p.trim()}]`).parse()) });
      return;
    }
    const key = DICT_KEY.exec(text);
    if (key) {
      this.nodes.push(...new Parser(`.${key[1]}`).parse());
      return;
    }
    const slice = SLICE.exec(text);
    if (!slice) throw new JsonPathError(`invalid array index ${text}`);
    this.nodes.push({ type: "array", params: sliceParams(slice.slice(1, 4)) });
  }

  private filter(): void {
    this.pos += 3;
    const start = this.pos;
    let begin = false;
    let end = false;
    let pair = "";
    for (;;) {
      const r = this.input[this.pos++];
      if (r === undefined || r === "\n") throw new JsonPathError("unterminated filter");
      if (r === '"' || r === "'") {
        if (!begin) {
          begin = true;
          pair = r;
        } else if (this.input[this.pos - 2] !== "\\" && r === pair) end = true;
      } else if (r === ")" && begin === end) break;
    }
    if (this.input[this.pos++] !== "]") throw new JsonPathError("unclosed array expect ]");
    const text = this.input.slice(start, this.pos - 2);
    const parts = FILTER.exec(text);
    if (!parts) {
      this.nodes.push({ type: "filter", left: new Parser(text).parse(), right: [], operator: "exists" });
      return;
    }
    const [, left = "", operator = "", right = ""] = parts;
    this.nodes.push({ type: "filter", left: new Parser(left).parse(), right: new Parser(right).parse(), operator });
  }

  private quoted(quote: string): void {
    const start = this.pos;
    for (this.pos++; ; this.pos++) {
      const r = this.input[this.pos];
      if (r === undefined || r === "\n") throw new JsonPathError("unterminated quoted string");
      if (r === quote && this.input[this.pos - 1] !== "\\") break;
    }
    this.pos++;
    this.nodes.push({ type: "constant", value: unquote(this.input.slice(start + 1, this.pos - 1), quote) });
  }

  private number(): void {
    const match = /^[+-]?[\d.]*/.exec(this.input.slice(this.pos))?.[0] ?? "";
    this.pos += match.length;
    const value = Number(match);
    if (match === "" || Number.isNaN(value)) throw new JsonPathError(`cannot parse number ${match}`);
    this.nodes.push({ type: "constant", value });
  }

  private identifier(): void {
    const start = this.pos;
    while (this.pos < this.input.length && !TERMINATORS.has(this.input[this.pos] as string)) this.pos++;
    const word = this.input.slice(start, this.pos);
    // range/end templates only make sense in kubectl's text output, never in a column.
    if (word !== "true" && word !== "false") throw new JsonPathError(`unsupported identifier ${word}`);
    this.nodes.push({ type: "constant", value: word === "true" });
  }
}

function sliceParams(groups: (string | undefined)[]): [SliceParam, SliceParam, SliceParam] {
  const params: SliceParam[] = [];
  for (let i = 0; i < 3; i++) {
    const raw = groups[i] ?? "";
    const text = i > 0 ? raw.slice(1) : raw;
    if (raw === "") {
      params.push(
        i === 1 ? { known: true, value: (params[0]?.value ?? 0) + 1, derived: true } : { known: false, value: 0 },
      );
    } else if (i > 0 && text === "") {
      params.push({ known: false, value: 0 });
    } else {
      const value = Number(text);
      if (!Number.isInteger(value)) throw new JsonPathError(`array index ${text} is not a number`);
      params.push({ known: true, value });
    }
  }
  return params as [SliceParam, SliceParam, SliceParam];
}

function unquote(body: string, quote: string): string {
  return body.replace(/\\(.)/g, (_, c: string) => {
    const escapes: Record<string, string> = { n: "\n", t: "\t", r: "\r", "\\": "\\", [quote]: quote };
    return escapes[c] ?? `\\${c}`;
  });
}

/** Parses the inside of one `{…}` action, such as a printer column's `.status.phase`. */
export function parseJsonPath(source: string): JsonPath {
  return { source, nodes: new Parser(source).parse() };
}

function children(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  if (isJsonObject(v)) return Object.values(v);
  return [];
}

/** Every value with children and every container below it, parents before children, in document order. */
function descendants(input: readonly unknown[]): unknown[] {
  const out: unknown[] = [];
  const pending = [...input].reverse();
  while (pending.length > 0) {
    const value = pending.pop();
    const kids = children(value);
    if (kids.length === 0) continue;
    out.push(value);
    for (let i = kids.length - 1; i >= 0; i--) pending.push(kids[i]);
  }
  return out;
}

function evalArray(input: readonly unknown[], params: readonly SliceParam[]): unknown[] {
  const out: unknown[] = [];
  const [p0, p1, p2] = params as [SliceParam, SliceParam, SliceParam];
  for (const value of input) {
    if (value === null || value === undefined) continue;
    if (!Array.isArray(value)) throw new JsonPathError(`${typeof value} is not array or slice`);
    const length = value.length;
    let start = p0.known ? p0.value : 0;
    if (start < 0) start += length;
    let end = p1.known ? p1.value : length;
    if (end < 0 || (end === 0 && p1.derived)) end += length;
    if (end === start) return out;
    if (start >= length || start < 0)
      throw new JsonPathError(`array index out of bounds: index ${start}, length ${length}`);
    if (end > length || end < 0)
      throw new JsonPathError(`array index out of bounds: index ${end - 1}, length ${length}`);
    if (start > end) throw new JsonPathError(`starting index ${start} is greater than ending index ${end}`);
    const step = p2.known ? p2.value : 1;
    if (step <= 0) throw new JsonPathError("step must be > 0");
    for (let i = start; i < end; i += step) out.push(value[i]);
  }
  return out;
}

function compare(left: unknown, right: unknown, operator: string): boolean {
  if (
    typeof left !== typeof right ||
    (typeof left !== "string" && typeof left !== "number" && typeof left !== "boolean")
  ) {
    throw new JsonPathError("incompatible types for comparison");
  }
  const l = left as string | number | boolean;
  const r = right as string | number | boolean;
  switch (operator) {
    case "==":
      return l === r;
    case "!=":
      return l !== r;
    case "<":
      return l < r;
    case ">":
      return l > r;
    case "<=":
      return l <= r;
    case ">=":
      return l >= r;
    default:
      throw new JsonPathError(`unrecognized filter operator ${operator}`);
  }
}

function one(values: readonly unknown[]): unknown {
  if (values.length > 1) throw new JsonPathError("can only compare one element at a time");
  return values[0];
}

function evalFilter(input: readonly unknown[], node: Extract<PathNode, { type: "filter" }>): unknown[] {
  const out: unknown[] = [];
  for (const value of input) {
    if (!Array.isArray(value)) throw new JsonPathError("not array or slice and cannot be filtered");
    for (const item of value) {
      const lefts = evalNodes([item], node.left);
      if (node.operator === "exists") {
        if (lefts.length > 0) out.push(item);
        continue;
      }
      if (lefts.length === 0) continue;
      const left = one(lefts);
      const rights = evalNodes([item], node.right);
      if (rights.length === 0) continue;
      if (compare(left, one(rights), node.operator)) out.push(item);
    }
  }
  return out;
}

function evalNode(input: readonly unknown[], node: PathNode): unknown[] {
  switch (node.type) {
    case "field":
      return input.filter(isJsonObject).flatMap((v) => (Object.hasOwn(v, node.name) ? [v[node.name]] : []));
    case "wildcard":
      return input.flatMap(children);
    case "recursive":
      return descendants(input);
    case "array":
      return evalArray(input, node.params);
    case "union":
      return node.branches.flatMap((branch) => evalNodes(input, branch));
    case "filter":
      return evalFilter(input, node);
    case "constant":
      return [node.value];
  }
}

function evalNodes(input: readonly unknown[], nodes: readonly PathNode[]): unknown[] {
  let current: unknown[] = [...input];
  for (const node of nodes) current = evalNode(current, node);
  return current;
}

/** Every value the path selects in `data`, in document order. */
export function findJsonPath(path: JsonPath, data: unknown): unknown[] {
  return evalNodes([data], path.nodes);
}

/**
 * A printer column's selected value as client-go's jsonpath prints it: maps and lists as Go's json.Marshal,
 * scalars as fmt.Fprint, and a JSON null as `<no value>` (the zero reflect.Value it becomes).
 */
export function printJsonPathValue(value: unknown): string {
  if (value === null || value === undefined) return "<no value>";
  if (typeof value === "string") return value;
  if (typeof value === "number") return goNumber(value);
  if (typeof value === "boolean") return String(value);
  return goJsonText(value);
}
