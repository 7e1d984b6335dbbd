// Name resolution as cel-go's containers package does it: a name is tried in the container and each of
// its parents before the root (`a.b` container, name `x` → `a.b.x`, `a.x`, `x`); a leading dot names the
// root only. Select chains of identifiers (`a.b.c`) are candidate qualified names.
import type { Expr } from "../common/ast.js";

export function candidateNames(container: string, name: string): string[] {
  if (name.startsWith(".")) return [name.slice(1)];
  if (container === "") return [name];
  const candidates = [`${container}.${name}`];
  for (let prefix = container, dot = prefix.lastIndexOf("."); dot >= 0; dot = prefix.lastIndexOf(".")) {
    prefix = prefix.slice(0, dot);
    candidates.push(`${prefix}.${name}`);
  }
  candidates.push(name);
  return candidates;
}

/** `a` of `a.b.c` (`.a` of `.a.b`, which no comprehension variable can be named). */
export function firstSegment(name: string): string {
  const dot = name.indexOf(".", 1);
  return dot < 0 ? name : name.slice(0, dot);
}

/** `a.b.c` for an identifier or a chain of field selections on one; undefined otherwise (and for `has()` tests). */
export function qualifiedName(expr: Expr): string | undefined {
  if (expr.kind === "ident") return expr.name;
  if (expr.kind !== "select" || expr.testOnly) return undefined;
  const operand = qualifiedName(expr.operand);
  return operand === undefined ? undefined : `${operand}.${expr.field}`;
}
