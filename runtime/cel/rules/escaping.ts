// Property names as CEL sees them (k8s.io/apiserver/pkg/cel escaping): CEL identifiers are
// `[a-zA-Z_][a-zA-Z0-9_]*`, so `__` becomes `__underscores__`, `.` `__dot__`, `-` `__dash__`, `/`
// `__slash__`, and a name that is a CEL reserved word `__<word>__`. Names outside
// `[a-zA-Z_.-/][a-zA-Z0-9_.-/]*` cannot be written in an expression and are not declared at all.

/** Words the CEL lexer reserves; a property with exactly this name is escaped as `__<word>__`. */
export const celReservedWords: ReadonlySet<string> = new Set([
  "true",
  "false",
  "null",
  "in",
  "as",
  "break",
  "const",
  "continue",
  "else",
  "for",
  "function",
  "if",
  "import",
  "let",
  "loop",
  "package",
  "namespace",
  "return",
  "var",
  "void",
  "while",
]);

const plainIdentifier = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const escapable = /^[a-zA-Z_.\-/][a-zA-Z0-9_.\-/]*$/;
/** At each position the longest escape wins: `__` before a single character. */
const escapeSequence = /__|[.\-/]/g;
const escapedSequence = /__[^_]+__/g;

const escapes: Record<string, string> = { __: "__underscores__", ".": "__dot__", "-": "__dash__", "/": "__slash__" };
const unescapes: Record<string, string> = { underscores: "__", dot: ".", dash: "-", slash: "/" };

/** The CEL identifier of a property name, or undefined when the name cannot be accessed from CEL. */
export function escapeName(name: string): string | undefined {
  if (celReservedWords.has(name)) return `__${name}__`;
  if (plainIdentifier.test(name) && !name.includes("__")) return name;
  if (!escapable.test(name)) return undefined;
  return name.replace(escapeSequence, (s) => escapes[s] as string);
}

/** The property name an escaped CEL identifier stands for, or undefined for a malformed escape. */
export function unescapeName(escaped: string): string | undefined {
  let ok = true;
  const name = escaped.replace(escapedSequence, (s) => {
    const inner = s.slice(2, -2);
    const plain = unescapes[inner];
    if (plain !== undefined) return plain;
    // A reserved word is only an escape when it is the whole identifier.
    if (celReservedWords.has(inner) && s.length === escaped.length) return inner;
    ok = false;
    return "";
  });
  return ok ? name : undefined;
}
