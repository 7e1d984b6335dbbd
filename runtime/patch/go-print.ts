// Decoded JSON as Go sees it once encoding/json has put it into an interface{}: the type a value gets
// (sigs.k8s.io/json keeps integers as int64) and fmt's `%v` and `%s` printing of it (`map[a:1 b:[x y]]`),
// which kube's error texts carry. Printing keeps its own stack, since a value may nest 10000 deep.

import { goNumber } from "../errors/go-format.js";
import { isJsonObject, type JsonObject } from "../object/json-object.js";

export const goMapType = "map[string]interface {}";
export const goSliceType = "[]interface {}";

function byteOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/** A container being printed (both kinds close with `]`): its members in Go's order and how many are done. */
interface Printing {
  members: [string | undefined, unknown][];
  done: number;
}

function printing(v: unknown[] | JsonObject): Printing {
  if (Array.isArray(v)) return { members: v.map((item) => [undefined, item]), done: 0 };
  const keys = Object.keys(v).sort(byteOrder);
  return { members: keys.map((k) => [k, v[k]]), done: 0 };
}

/** Go's fmt printing of decoded JSON (`[a b]`, `map[k:v]`) with `scalar` for the rest, at any depth. */
function goText(v: unknown, scalar: (v: unknown) => string): string {
  const out: string[] = [];
  const stack: Printing[] = [];
  const begin = (item: unknown) => {
    if (Array.isArray(item) || isJsonObject(item)) {
      out.push(Array.isArray(item) ? "[" : "map[");
      stack.push(printing(item));
    } else out.push(scalar(item));
  };
  begin(v);
  while (stack.length > 0) {
    const top = stack[stack.length - 1] as Printing;
    const member = top.members[top.done];
    if (member === undefined) {
      out.push("]");
      stack.pop();
      continue;
    }
    if (top.done > 0) out.push(" ");
    top.done++;
    if (member[0] !== undefined) out.push(`${member[0]}:`);
    begin(member[1]);
  }
  return out.join("");
}

/** `%v` of an interface{} holding decoded JSON: `map[a:1 b:[x y]]`, `<nil>`. */
export function goV(v: unknown): string {
  return goText(v, (item) => {
    if (item === null || item === undefined) return "<nil>";
    return typeof item === "number" ? goNumber(item) : String(item);
  });
}

/** The Go type json decoding gives a value (sigs.k8s.io/json keeps integers as int64). */
export function goTypeOf(v: unknown): string {
  if (v === null || v === undefined) return "nil";
  if (Array.isArray(v)) return goSliceType;
  if (isJsonObject(v)) return goMapType;
  if (typeof v === "number") return Number.isInteger(v) ? "int64" : "float64";
  return typeof v === "boolean" ? "bool" : "string";
}

/** `%s` of an interface{}: strings as they are, other values as Go's bad-verb notation. */
export function goS(v: unknown): string {
  return goText(v, (item) => {
    if (typeof item === "string") return item;
    if (item === null || item === undefined) return "%!s(<nil>)";
    return `%!s(${goTypeOf(item)}=${goV(item)})`;
  });
}
