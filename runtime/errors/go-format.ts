// Go's ways of printing values (`%q`, numbers, encoding/json), which kube's messages embed verbatim.
/** Go's `%q`: a double-quoted string with Go escapes for control characters. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '"') out += '\\"';
    else if (ch === "\\") out += "\\\\";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\t") out += "\\t";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\u0007") out += "\\a";
    else if (ch === "\b") out += "\\b";
    else if (ch === "\f") out += "\\f";
    else if (ch === "\v") out += "\\v";
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, "0")}`;
    else out += ch;
  }
  return `${out}"`;
}

/** Go's `%v` of a float64 or int64: exponents carry at least two digits. */
export function goNumber(n: number): string {
  return String(n).replace(/e([+-])(\d)$/, "e$10$2");
}

/** Go's json.Marshal of a decoded JSON value: map keys sorted, <, > and & escaped. */
/** A Go struct value (an error's bad value): encoded with its fields in declaration order, where maps are sorted. */
export class GoStruct {
  constructor(readonly fields: Readonly<Record<string, unknown>>) {}
}

export function goJson(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (Array.isArray(value)) return `[${value.map(goJson).join(",")}]`;
  if (value instanceof GoStruct) {
    const entries = Object.entries(value.fields).filter(([, v]) => v !== undefined);
    return `{${entries.map(([k, v]) => `${goJson(k)}:${goJson(v)}`).join(",")}}`;
  }
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${goJson(k)}:${goJson(v)}`).join(",")}}`;
  }
  if (typeof value === "number") return Number.isFinite(value) ? goNumber(value) : "null";
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

export function goValue(value: unknown): string {
  if (typeof value === "string") return goQuote(value);
  if (typeof value === "number") return goNumber(value);
  if (typeof value === "boolean") return String(value);
  return goJson(value);
}
