// The `fieldSelector` query parameter, parsed, matched and printed as apimachinery's fields package does:
// comma-separated `field=value`, `field==value` or `field!=value` terms, values escaping `\`, `,` and `=`
// with a backslash. The field side takes no escapes: the first operator found splits the term.
import { compareGoStrings } from "./go-strings.js";
import type { ParseResult } from "./parse-result.js";

export interface FieldRequirement {
  readonly field: string;
  /** "==" parses to "=", as kube's hasTerm prints it. */
  readonly operator: "=" | "!=";
  readonly value: string;
}

/** A fields.Set: missing fields read as "". */
export type Fields = Readonly<Record<string, string>>;

/** EscapeValue: `\` first, then `,` and `=`. */
export function escapeFieldValue(s: string): string {
  return s.replace(/[\\,=]/g, (c) => `\\${c}`);
}

/** UnescapeValue, with kube's errors (an unescaped rune is printed as its code point number). */
export function unescapeFieldValue(s: string): { ok: true; value: string } | { ok: false; error: string } {
  let out = "";
  let inSlash = false;
  for (const c of s) {
    if (inSlash) {
      if (c !== "\\" && c !== "," && c !== "=") {
        return { ok: false, error: `invalid field selector: invalid escape sequence: \\${c}` };
      }
      out += c;
      inSlash = false;
    } else if (c === "\\") inSlash = true;
    else if (c === "," || c === "=") {
      return { ok: false, error: `invalid field selector: unescaped character in value: ${c.codePointAt(0)}` };
    } else out += c;
  }
  if (inSlash) return { ok: false, error: "invalid field selector: invalid escape sequence: \\" };
  return { ok: true, value: out };
}

/** Commas split terms unless escaped; the escapes stay in the term for the value to undo. */
function splitTerms(s: string): string[] {
  if (s === "") return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (inSlash) inSlash = false;
    else if (c === "\\") inSlash = true;
    else if (c === ",") {
      terms.push(s.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(s.slice(start));
  return terms;
}

/** "!=" and "==" are tried before "=" at each position, so `a==b` is not `a` = `=b`. */
function splitTerm(term: string): { lhs: string; op: string; rhs: string } | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of ["!=", "==", "="]) {
      if (term.startsWith(op, i)) return { lhs: term.slice(0, i), op, rhs: term.slice(i + op.length) };
    }
  }
  return undefined;
}

export class FieldSelector {
  constructor(readonly requirements: readonly FieldRequirement[]) {}

  matches(fields: Fields): boolean {
    for (const r of this.requirements) {
      const actual = fields[r.field] ?? "";
      if ((actual === r.value) !== (r.operator === "=")) return false;
    }
    return true;
  }

  isEmpty(): boolean {
    return this.requirements.length === 0;
  }

  /** Terms in the order parsing sorted them, values re-escaped. */
  toString(): string {
    return this.requirements.map((r) => `${r.field}${r.operator}${escapeFieldValue(r.value)}`).join(",");
  }

  /** RequiresExactMatch: the value the first `field=value` term on `field` pins. */
  requiresExactMatch(field: string): string | undefined {
    return this.requirements.find((r) => r.field === field && r.operator === "=")?.value;
  }

  /**
   * Transform: each term through `fn` (kube's field label conversion), stopping at the first error;
   * a term mapped to an empty field and value is dropped.
   */
  transform(
    fn: (field: string, value: string) => { field: string; value: string } | { error: string },
  ): ParseResult<FieldSelector> {
    const out: FieldRequirement[] = [];
    for (const r of this.requirements) {
      const t = fn(r.field, r.value);
      if ("error" in t) return { ok: false, error: t.error };
      if (t.field !== "" || t.value !== "") out.push({ field: t.field, operator: r.operator, value: t.value });
    }
    return { ok: true, selector: new FieldSelector(out) };
  }
}

export const everythingFields = new FieldSelector([]);

/** fields.ParseSelector. Raw terms are sorted before parsing, which fixes the printed order. */
export function parseFieldSelector(selector: string): ParseResult<FieldSelector> {
  const parts = splitTerms(selector).sort(compareGoStrings);
  const reqs: FieldRequirement[] = [];
  for (const part of parts) {
    if (part === "") continue;
    const term = splitTerm(part);
    if (term === undefined) {
      return { ok: false, error: `invalid selector: '${selector}'; can't understand '${part}'` };
    }
    const value = unescapeFieldValue(term.rhs);
    if (!value.ok) return { ok: false, error: value.error };
    reqs.push({ field: term.lhs, operator: term.op === "!=" ? "!=" : "=", value: value.value });
  }
  return { ok: true, selector: new FieldSelector(reqs) };
}
