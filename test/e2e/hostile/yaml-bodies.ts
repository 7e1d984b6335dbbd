// Hostile YAML: bodies nested deep, alias bombs, merge keys with values that are not maps, tabs, tags from
// other languages, many documents, keys that are not strings; and valid objects written with these.
import { stringify } from "yaml";
import type { Json } from "./corpus.js";
import { renderJson } from "./hostile-values.js";
import { mutateValueMany } from "./mutate-json.js";
import type { Prng } from "./prng.js";

/** `value` as block YAML; too deep for the writer, as JSON, which is YAML too. */
export function yamlText(value: Json): string {
  try {
    return stringify(value);
  } catch {
    return `${renderJson(value)}\n`;
  }
}

/** The "billion laughs": `levels` anchors, each a list of `width` aliases of the one before. */
export function aliasBomb(levels: number, width: number): string {
  const lines = ['a0: &a0 ["lol"]'];
  for (let i = 1; i <= levels; i++) {
    lines.push(`a${i}: &a${i} [${Array.from({ length: width }, () => `*a${i - 1}`).join(", ")}]`);
  }
  return `${lines.join("\n")}\n`;
}

/** Block mappings `depth` levels deep (each one more space of indentation). */
function deepBlock(depth: number): string {
  let out = "";
  for (let i = 0; i < depth; i++) out += `${" ".repeat(i)}k:\n`;
  return `${out}${" ".repeat(depth)}v: 1\n`;
}

const tags = [
  "!!binary aGVsbG8=",
  "!!binary '@@@'",
  "!!python/object:os.system ls",
  "!!python/object/apply:os.system [ls]",
  "!!js/function 'function(){}'",
  "!!timestamp 2001-12-14t21:59:43.10-05:00",
  "!!timestamp not-a-time",
  "!!int 0x1F",
  "!!int abc",
  "!!float .nan",
  "!!float xyz",
  "!!bool yes",
  "!!bool maybe",
  "!!null x",
  "!!str 1",
  "!!set {a, b}",
  "!!omap [a: 1, b: 2]",
  "!!map [1, 2]",
  "!!seq {a: 1}",
  "!custom x",
  "!<tag:yaml.org,2002:str> x",
  "!<!> x",
  "!!merge x",
  "!!value x",
];

const scalars = [
  "yes",
  "no",
  "on",
  "off",
  "y",
  "~",
  ".inf",
  "-.inf",
  ".nan",
  "0777",
  "0o17",
  "0b101",
  "1_000",
  "1:30:00",
  "2001-12-14",
  "1e400",
  "18446744073709551616",
  "-0",
  "=",
  "<<",
  "'unterminated",
  '"\\x00\\uD800"',
  "|\n  block\n   more",
  ">-\n folded",
  "*undefined",
  "&anchor",
  "[",
  "{",
  "}",
  "@at",
  "`tick",
  "%percent",
];

/** A YAML document that is hostile in itself, whatever it is sent to. */
export function hostileYamlDocument(prng: Prng): string {
  switch (prng.int(16)) {
    case 0:
      return aliasBomb(prng.between(3, 10), prng.between(2, 10));
    case 1:
      return `${"[".repeat(prng.size([100, 1000], [10_001, 100_000]))}\n`;
    case 2:
      return `${'{"a":'.repeat(prng.size([100, 1000], [10_001, 200_000]))}1${prng.chance(0.5) ? "}".repeat(10) : ""}\n`;
    case 3:
      return deepBlock(prng.size([50, 300], [1000]));
    case 4:
      return `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: m\n  <<: ${prng.pick(["1", "x", "[1, 2]", "null", "[a, [b]]", "*nope", "{}", "[*a]", "~"])}\n`;
    case 5:
      return `base: &b {name: x, namespace: y}\nmetadata:\n  <<: [*b, *b, *b]\n  <<: *b\n`;
    case 6:
      return `apiVersion: v1\nkind: ConfigMap\nmetadata:\n\tname: tab\ndata:\n  a:\tb\n`;
    case 7:
      return `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${prng.pick(tags)}\ndata: ${prng.pick(tags)}\n`;
    case 8:
      return Array.from(
        { length: prng.size([2, 100], [10_000]) },
        (_, i) => `---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: d${i}}\n`,
      ).join("");
    case 9:
      return `%YAML 1.1\n%TAG ! tag:example.com,2000:\n---\n!thing\napiVersion: v1\n...\n%YAML 9.9\n---\nx\n`;
    case 10:
      return `? [complex, key]\n: value\n? {a: b}\n: c\n1: int key\ntrue: bool key\nnull: null key\n~: tilde\n`;
    case 11:
      return `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: dup, name: again}\ndata: {a: 1, a: 2}\nkind: Secret\n`;
    case 12:
      return `a: &x [*x]\n`;
    case 13:
      return `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${"x".repeat(prng.size([100], [100_000]))}\ndata:\n  k: ${prng.pick(scalars)}\n`;
    case 14:
      return prng.pick([
        "",
        "---",
        "...",
        "# only a comment",
        "\ufeffapiVersion: v1",
        "\u0000",
        "- a\nb: c",
        "a: b: c",
        "key: [unclosed",
        "'",
        ":",
      ]);
    default:
      return `anchors:\n${Array.from({ length: prng.size([10], [1000]) }, (_, i) => `  - &a${i} {k: v${i}}`).join("\n")}\nuse: [${Array.from({ length: 100 }, () => `*a${prng.int(10)}`).join(", ")}]\n`;
  }
}

/** A valid object written as YAML, then changed: a structural mutation, a tag or odd scalar put in, tabs. */
export function hostileYamlObject(prng: Prng, valid: Json): string {
  const text = yamlText(prng.chance(0.5) ? mutateValueMany(prng, valid) : valid);
  const lines = text.split("\n");
  const at = prng.int(lines.length);
  switch (prng.int(6)) {
    case 0:
      lines[at] = (lines[at] ?? "").replace(/: .*$/, `: ${prng.pick(tags)}`);
      break;
    case 1:
      lines[at] = (lines[at] ?? "").replace(/: .*$/, `: ${prng.pick(scalars)}`);
      break;
    case 2:
      lines[at] = (lines[at] ?? "").replace(/^ +/, (s) => "\t".repeat(Math.ceil(s.length / 2)));
      break;
    case 3:
      lines.splice(
        at,
        0,
        `${(lines[at] ?? "").match(/^ */)?.[0] ?? ""}<<: ${prng.pick(["1", "[x]", "*nope", "{a: 1}", "null"])}`,
      );
      break;
    case 4:
      lines.splice(
        at,
        0,
        `${(lines[at] ?? "").match(/^ */)?.[0] ?? ""}${prng.pick(["? [k]", "&a", "*a", "---", "%YAML 1.2", "!!binary"])}`,
      );
      break;
    default:
      return `${text}---\n${hostileYamlDocument(prng)}`;
  }
  return lines.join(prng.chance(0.1) ? "\r\n" : "\n");
}
