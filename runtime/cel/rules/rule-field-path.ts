// A rule's `fieldPath`: a relative JSON path (`.spec.replicas`, `.labels['app.kubernetes.io/name']`)
// from the schema node carrying the rule to a field it declares, checked and normalized into the field
// path error reporting prints (`spec.replicas`, `labels[app.kubernetes.io/name]`), as Kubernetes'
// ValidFieldPath. Only property names and map keys: no list indexes.
import { child, key } from "../../errors/field-path.js";
import type { StructuralSchema } from "./structural-schema.js";

export type FieldPathResult = { readonly path: string } | { readonly error: string };

/** Splits into `.`, `[`, `]` and the text between them; a single-quoted string is one token. */
function tokenize(jsonPath: string): string[] {
  const tokens: string[] = [];
  let rest = jsonPath;
  while (rest.length > 0) {
    let end = rest.length;
    if (rest[0] === "'") {
      for (let i = 1; i < rest.length; i++) {
        if (rest[i] === "'" && rest[i - 1] !== "\\") {
          end = i + 1;
          break;
        }
      }
    } else {
      const at = rest.search(/[.[\]]/);
      end = at === 0 ? 1 : at < 0 ? rest.length : at;
    }
    tokens.push(rest.slice(0, end));
    rest = rest.slice(end);
  }
  return tokens;
}

const quotedEscapes: Readonly<Record<string, string>> = {
  a: "\u0007",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "'": "'",
  "\\": "\\",
};

function unquote(quoted: string): { value: string } | { error: string } {
  let bad: string | undefined;
  const value = quoted.replace(/\\./g, (m) => {
    const plain = quotedEscapes[m.charAt(1)];
    if (plain === undefined) bad ??= m;
    return plain ?? "";
  });
  return bad === undefined ? { value } : { error: `invalid string literal: invalid escape char ${bad}` };
}

/** Checks `jsonPath` against the schema it is relative to. */
export function validFieldPath(jsonPath: string, schema: StructuralSchema): FieldPathResult {
  const tokens = tokenize(jsonPath);
  let path = "";
  let node: StructuralSchema | undefined = schema;
  const step = (name: string): string | undefined => {
    if (node?.properties !== undefined) {
      path = child(path, name);
      node = node.properties[name];
      return node === undefined ? "does not refer to a valid field" : undefined;
    }
    if (node?.additionalProperties !== undefined && node.additionalProperties !== false) {
      path = key(path, name);
      node = typeof node.additionalProperties === "object" ? node.additionalProperties : undefined;
      return undefined;
    }
    return "does not refer to a valid field";
  };
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as string;
    if (token === "[") {
      const quoted = tokens[++i];
      if (quoted === undefined) return { error: "unexpected end of JSON path" };
      if (quoted.length < 2 || !quoted.startsWith("'") || !quoted.endsWith("'")) {
        return { error: `expected single quoted string but got ${quoted}` };
      }
      const name = unquote(quoted.slice(1, -1));
      if ("error" in name) return name;
      const problem = step(name.value);
      if (problem !== undefined) return { error: problem };
      const close = tokens[++i];
      if (close === undefined) return { error: "unexpected end of JSON path" };
      if (close !== "]") return { error: `expected ] but got ${close}` };
    } else if (token === ".") {
      const name = tokens[++i];
      if (name === undefined) return { error: "unexpected end of JSON path" };
      const problem = step(name);
      if (problem !== undefined) return { error: problem };
    } else {
      return { error: `expected [ or . but got: ${token}` };
    }
  }
  return { path };
}
