// YAML request bodies read as kube-apiserver reads them (sigs.k8s.io/yaml over go-yaml v2). Every expected
// answer below was checked against kube-apiserver v1.36.2: the reason is its 400's message without the
// "the object provided is unrecognized (must be of type …): " prefix and the quoted body, and the values are
// what it stored for the same YAML under a custom resource's spec.
import { describe, expect, it } from "vitest";
import { parseYaml } from "../../../runtime/codecs/yaml-body.js";

function reason(text: string | Buffer): string | undefined {
  const parsed = parseYaml(typeof text === "string" ? Buffer.from(text) : text);
  return "error" in parsed ? parsed.error : undefined;
}

function value(text: string): unknown {
  const parsed = parseYaml(Buffer.from(text));
  if ("error" in parsed) throw new Error(parsed.error);
  return parsed.value;
}

/** Malformed or refused bodies and kube's reason for each. */
const refused: [string, string][] = [
  ["a: b: c", "yaml: mapping values are not allowed in this context"],
  ['a: "open', "yaml: found unexpected end of stream"],
  ['\n\na: "open', "yaml: line 3: found unexpected end of stream"],
  ["a: 'open", "yaml: found unexpected end of stream"],
  ["a:\n  b: 1\n c: 2", "yaml: line 2: did not find expected key"],
  ["- a\nb: c", "yaml: line 1: did not find expected '-' indicator"],
  ["a: [b", "yaml: line 1: did not find expected ',' or ']'"],
  ["a: {b", "yaml: line 1: did not find expected ',' or '}'"],
  ["a: [b,\nc", "yaml: line 2: did not find expected ',' or ']'"],
  ["[a, b", "yaml: line 1: did not find expected ',' or ']'"],
  ["{a: b", "yaml: line 1: did not find expected ',' or '}'"],
  ["a: b\n- c", "yaml: line 1: did not find expected key"],
  ["a:\n\tb: 1", "yaml: line 2: found character that cannot start any token"],
  ["\ta: 1", "yaml: found character that cannot start any token"],
  ["a: b\n\tc: d", "yaml: line 2: found a tab character that violates indentation"],
  ["a: |\n\tfoo", "yaml: line 2: found a tab character where an indentation space is expected"],
  ["a: @b", "yaml: found character that cannot start any token"],
  ["a: `b", "yaml: found character that cannot start any token"],
  ["a: %b", "yaml: found character that cannot start any token"],
  ["%YAML 1.2\n---\na: 1", "yaml: found incompatible YAML document"],
  ["%YAML 1.1\n%YAML 1.1\n---\na: 1", "yaml: line 1: found duplicate %YAML directive"],
  ["%TAG ! !foo\n%TAG ! !bar\n---\na: 1", "yaml: line 1: found duplicate %TAG directive"],
  ["%FOO bar\n---\na: 1", "yaml: found unknown directive name"],
  ["%YAML\n---\na: 1", "yaml: did not find expected version number"],
  ["%YAML 1.1 x\n---\na: 1", "yaml: did not find expected comment or line break"],
  ["%YAML 123.1\n---\na: 1", "yaml: found extremely long version number"],
  ["a: !<tag:foo b", "yaml: did not find the expected '>'"],
  ["a: !foo!bar c", "yaml: found undefined tag handle"],
  ["a: !!int abc", "yaml: cannot decode !!str `abc` as a !!int"],
  ["a: !!float abc", "yaml: cannot decode !!str `abc` as a !!float"],
  ["a: !!bool 1", "yaml: cannot decode !!int `1` as a !!bool"],
  ["a: !!null x", "yaml: cannot decode !!str `x` as a !!null"],
  ["a: !!int 1.5", "yaml: cannot decode !!float `1.5` as a !!int"],
  ["a: !!timestamp x", "yaml: cannot decode !!str `x` as a !!timestamp"],
  ["a: !e!x y", "yaml: found undefined tag handle"],
  ["a: &", "yaml: did not find expected alphabetic or numeric character"],
  ["a: *", "yaml: did not find expected alphabetic or numeric character"],
  ["a: *x", "yaml: unknown anchor 'x' referenced"],
  ["a: &x 1\nb: *y", "yaml: unknown anchor 'y' referenced"],
  ["a: &a [*a]", "yaml: anchor 'a' value contains itself"],
  ["a: &a {b: *a}", "yaml: anchor 'a' value contains itself"],
  ['a: "\\q"', "yaml: found unknown escape character"],
  ['a: "\\xZZ"', "yaml: did not find expected hexdecimal number"],
  ['a: "\\ud800"', "yaml: found invalid Unicode character escape code"],
  ['a: "\\U0011ffff"', "yaml: found invalid Unicode character escape code"],
  ["a: |0\n  x", "yaml: found an indentation indicator equal to 0"],
  ["a: |x\n  y", "yaml: did not find expected comment or line break"],
  ["a: >-2-\n  x", "yaml: did not find expected comment or line break"],
  ["a:\n  - b\n  c: d", "yaml: line 2: did not find expected '-' indicator"],
  ["a: b\nc", "yaml: line 3: could not find expected ':'"],
  ["a: b\nc\nd: e", "yaml: line 3: could not find expected ':'"],
  ["[a]: b", 'yaml: invalid map key: []interface {}{"a"}'],
  ["{a: b}: c", 'yaml: invalid map key: map[interface {}]interface {}{"a":"b"}'],
  ["a:\n  <<: 5", "yaml: map merge requires map or sequence of maps as the value"],
  ["a:\n  <<: [5]", "yaml: map merge requires map or sequence of maps as the value"],
  ["x: &x [1]\ny:\n  <<: *x", "yaml: map merge requires map or sequence of maps as the value"],
  ["~: 1", "unsupported map key of type: %!s(<nil>), key: <nil>, value: 1"],
  ["null: 1", "unsupported map key of type: %!s(<nil>), key: <nil>, value: 1"],
  ["12345678901234567890: a", 'unsupported map key of type: uint64, key: 0xab54a98ceb1f0ad2, value: "a"'],
  ["a: .inf", "json: unsupported value: +Inf"],
  ["a: -.inf", "json: unsupported value: -Inf"],
  ["a: .nan", "json: unsupported value: NaN"],
  ["a: [.nan, .inf]", "json: unsupported value: NaN"],
  ["b: -.inf\na: .nan", "json: unsupported value: NaN"],
  ["...\n", "yaml: did not find expected node content"],
  ["a: [b, c]: d", "yaml: mapping values are not allowed in this context"],
  ["a: - b", "yaml: block sequence entries are not allowed in this context"],
  ["a: ? b", "yaml: mapping keys are not allowed in this context"],
  ["a:\n  b:\n    c:\n  d", "yaml: line 5: could not find expected ':'"],
  ["a\nb: c", "yaml: line 2: mapping values are not allowed in this context"],
  ['"a\nb": c', "yaml: line 2: mapping values are not allowed in this context"],
  ["a: b\n  c: d", "yaml: line 2: mapping values are not allowed in this context"],
  ["a: |\n  x\n y", "yaml: line 2: did not find expected key"],
  ["a: >\n  x\n\n  y\n   z\n w", "yaml: line 5: did not find expected key"],
  ['a: "x\n---\ny"', "yaml: line 2: found unexpected document indicator"],
  ["a: 'x\n...\n'", "yaml: line 2: found unexpected document indicator"],
  [
    "a: 2001-01-01\nb: !!timestamp 2001-01-01\nc: !!float 2001-01-01",
    "yaml: cannot decode !!str `2001-01-01` as a !!float",
  ],
  ["a: \u0001", "yaml: control characters are not allowed"],
  ["a: b: c\nc: \u0001", "yaml: control characters are not allowed"],
  ["a:\n  - b\n  -c", "yaml: line 4: could not find expected ':'"],
  ["a:\n  ? - x\n  : y", 'yaml: invalid map key: []interface {}{"x"}'],
  ["a: {[b]: c}", 'yaml: invalid map key: []interface {}{"b"}'],
  [
    'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
    "yaml: document contains excessive aliasing",
  ],
  [
    'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\ng: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]',
    "yaml: document contains excessive aliasing",
  ],
  ["a:\n  - b\n  -\tc", "yaml: line 3: found character that cannot start any token"],
  ["-\ta", "yaml: found character that cannot start any token"],
  ["? \ta\n: b", "yaml: found character that cannot start any token"],
  ["a:\n  b: |\n   \tx", "yaml: line 3: found a tab character where an indentation space is expected"],
  ["a: x\n\ty", "yaml: line 2: found a tab character that violates indentation"],
  ["a:\n  x\n\ty", "yaml: line 3: found a tab character that violates indentation"],
  ["[, a]", "yaml: did not find expected node content"],
  ["{, a}", "yaml: did not find expected node content"],
  ["[a,, b]", "yaml: did not find expected node content"],
  ["{a: 1 b: 2}", "yaml: did not find expected ',' or '}'"],
  ["a: [b]]", "yaml: did not find expected key"],
  ["a: {b}}", "yaml: did not find expected key"],
  ["]", "yaml: did not find expected node content"],
  ["}", "yaml: did not find expected node content"],
  ["a: ]", "yaml: did not find expected node content"],
  ["a: }", "yaml: did not find expected node content"],
  [",", "yaml: did not find expected node content"],
  ["a: ,", "yaml: did not find expected node content"],
  ["- [a, - b]", "yaml: did not find expected node content"],
  ["a:\n  b: c\n   d: e", "yaml: line 3: mapping values are not allowed in this context"],
  ["a:\n    b: c\n  d: e", "yaml: line 2: did not find expected key"],
  ["a:\n- b\n-c", "yaml: line 4: could not find expected ':'"],
  ["a: 'x''", "yaml: found unexpected end of stream"],
  ['a: "x\\"', "yaml: found unexpected end of stream"],
  ['a: "\\', "yaml: found unknown escape character"],
  ["a: x: y", "yaml: mapping values are not allowed in this context"],
  ["a:  - b", "yaml: block sequence entries are not allowed in this context"],
  ["a: - ", "yaml: block sequence entries are not allowed in this context"],
  ["? - a\n: - b", 'yaml: invalid map key: []interface {}{"a"}'],
  ["a: !! b", "yaml: did not find expected tag URI"],
  ["a: !%zz b", "yaml: did not find URI escaped octet"],
  ["a: !%ff b", "yaml: found an incorrect leading UTF-8 octet"],
  ["%TAG !x tag:a,\n--- c", "yaml: did not find expected '!'"],
  ["%TAG !x! \n--- c", "yaml: did not find expected tag URI"],
  ["%YAML 1.\n--- a", "yaml: did not find expected version number"],
  ["a: *b c", "yaml: unknown anchor 'b' referenced"],
  ["a: &a{ b", "yaml: did not find expected alphabetic or numeric character"],
  ["a: *a:", "yaml: unknown anchor 'a' referenced"],
  ["~: 1\n~: 2", "unsupported map key of type: %!s(<nil>), key: <nil>, value: 2"],
  ["a: !!float 1e400", "yaml: cannot decode !!str `1e400` as a !!float"],
  ["a: !!float .inf\nb: 1", "json: unsupported value: +Inf"],
  ["a: !!int -9223372036854775809", "yaml: cannot decode !!float `-9223372036854775809` as a !!int"],
  ["a: !!int ''", "yaml: cannot decode !!null `` as a !!int"],
  ["a: !!binary 'aGVsbG8'", "yaml: !!binary value contains invalid base64 data"],
  ["a: !!timestamp 2001-02-29", "yaml: cannot decode !!str `2001-02-29` as a !!timestamp"],
  ["a: !!timestamp 2001-1-1T25:2:3Z", "yaml: cannot decode !!str `2001-1-1T25:2:3Z` as a !!timestamp"],
  ["a: !!timestamp 2001-1-1T1:2:3", "yaml: cannot decode !!str `2001-1-1T1:2:3` as a !!timestamp"],
  ["a: !!timestamp 2001-1-1 1:2:3Z", "yaml: cannot decode !!str `2001-1-1 1:2:3Z` as a !!timestamp"],
];

/** Bodies kube accepts, and the value it decodes (under a custom resource's spec). */
const accepted: [string, unknown][] = [
  [
    "a: yes\nb: no\nc: on\nd: OFF\ne: y\nf: n\ng: ~\nh: null\ni: Null\nj: true",
    { a: true, b: false, c: true, d: false, e: true, f: false, g: null, h: null, i: null, j: true },
  ],
  [
    "a: 0777\nb: 0x1f\nc: 0o17\nd: 0b11\ne: 1_000_000\nf: 08\ng: 09.5\nh: +12\ni: -0\nj: 1e3\nk: 1E-2\nl: .5\nm: 1.\nn: +.5",
    { a: 511, b: 31, c: 15, d: 3, e: 1000000, f: 8, false: 0.5, g: 9.5, h: 12, i: 0, j: 1000, k: 0.01, l: 0.5, m: 1 },
  ],
  [
    "a: 2024-01-01\nb: 2024-01-01T00:00:00Z\nc: 2024-1-1 1:2:3\nd: 2024-13-01\ne: '2024-01-01'",
    { a: "2024-01-01", b: "2024-01-01T00:00:00Z", c: "2024-1-1 1:2:3", d: "2024-13-01", e: "2024-01-01" },
  ],
  [
    "a: |\n  line1\n  line2\nb: |-\n  x\n\n\nc: |+\n  y\n\n\nd: >\n  folded\n  text\n\n  para\n   indented\n  back\ne: >-\n  z\n",
    { a: "line1\nline2\n", b: "x", c: "y\n\n\n", d: "folded text\npara\n indented\nback\n", e: "z" },
  ],
  ["a: |2\n   x\n  y\nb: >1\n  lead\n", { a: " x\ny\n", b: " lead\n" }],
  [
    "a: 'it''s'\nb: \"tab\\there\\nnew\"\nc: \"multi\n  line\n\n  para\"\nd: 'multi\n  line'\ne: \"esc\\\n  aped\"",
    { a: "it's", b: "tab\there\nnew", c: "multi line\npara", d: "multi line", e: "escaped" },
  ],
  [
    "a: plain\n  continued\n  more\nb: x #comment\nc: a#b\nd: 'a # b'",
    { a: "plain continued more", b: "x", c: "a#b", d: "a # b" },
  ],
  [
    "a: [1, 2, [3, 4], {b: c}]\nb: {x: 1, y: [2]}\nc: []\nd: {}\ne: [a: b, c: d]",
    { a: [1, 2, [3, 4], { b: "c" }], b: { true: [2], x: 1 }, c: [], d: {}, e: [{ a: "b" }, { c: "d" }] },
  ],
  [
    "x: &x {a: 1, b: [1,2,3]}\ny: *x\nz: *x\nw: [*x, *x, *x]",
    {
      true: { a: 1, b: [1, 2, 3] },
      w: [
        { a: 1, b: [1, 2, 3] },
        { a: 1, b: [1, 2, 3] },
        { a: 1, b: [1, 2, 3] },
      ],
      x: { a: 1, b: [1, 2, 3] },
      z: { a: 1, b: [1, 2, 3] },
    },
  ],
  [
    "base: &base {a: 1, b: 2}\nover:\n  <<: *base\n  b: 3\nlist:\n  <<: [{a: 1}, {a: 2, c: 3}]\n  d: 4\nlater:\n  b: 0\n  <<: *base",
    { base: { a: 1, b: 2 }, later: { a: 1, b: 2 }, list: { a: 1, c: 3, d: 4 }, over: { a: 1, b: 3 } },
  ],
  [
    "a: !!str 123\nb: !!int '42'\nc: !!float 1\nd: !!bool yes\ne: !!null ''\nf: !foo bar\ng: ! 12\nh: !!binary aGVsbG8=",
    { a: "123", b: 42, c: 1, d: true, e: null, f: "bar", g: "12", h: "hello" },
  ],
  [
    "1: one\n2.5: two\ntrue: t\n0x10: hex\n1e6: m\n0.1: tenth",
    { "1": "one", "16": "hex", "0.1": "tenth", "1e+06": "m", "2.5": "two", true: "t" },
  ],
  ["a:\n- b\n- c:\n  - d\n- - e\n  - f", { a: ["b", { c: ["d"] }, ["e", "f"]] }],
  ['a: "\\x41\\u00e9\\U0001F600\\N\\_\\L\\P\\e"', { a: "Aé😀\u0085\u00a0\u2028\u2029\u001b" }],
  ["a: 'é 日本 😀'\nb: \u2028", { a: "é 日本 😀", b: null }],
  [
    "list:\n  - name: a\n    value: 1\n  - name: b\n    value: [x, y]\n",
    {
      list: [
        { name: "a", value: 1 },
        { name: "b", value: ["x", true] },
      ],
    },
  ],
  ["a: 123456789012345678\nb: 1.5e300\nc: -1.5e-300", { a: 123456789012345680, b: 1.5e300, c: -1.5e-300 }],
  ["a:\n  b:\n  c: 1", { a: { b: null, c: 1 } }],
  ["x: &a 1\ny: &a 2\nz: *a", { true: 2, x: 1, z: 2 }],
  [
    'a: "x  y \\t z  "\nb: \'p  q  \'\nc: "l1  \n  l2"\nd: "l1 \\\n   l2"\ne: "a\n\n\n  b"\nf: \'x\n\n  y\'\ng: "\\x41 \\u0042 \n c"',
    { a: "x  y \t z  ", b: "p  q  ", c: "l1 l2", d: "l1 l2", e: "a\n\nb", f: "x\ny", g: "A B c" },
  ],
  [
    "a: x  y\nb: x  y  \nc: x\n  y\n\n  z\nd: x \t y\ne: x # c\nf: x\t# c",
    { a: "x  y", b: "x  y", c: "x y\nz", d: "x \t y", e: "x", f: "x" },
  ],
  [
    "a: [x  y , z\n  w, 'q  r' ]\nb: {k  1: v  1 , k2: v\n  2}",
    { a: ["x  y", "z w", "q  r"], b: { "k  1": "v  1", k2: "v 2" } },
  ],
  [
    "a: \"\\\n  x\"\nb: \" \\\n x\"\nc: \"x\\\n\n  y\"\nd: 'it''s  ''q'''",
    { a: "x", b: " x", c: "x\ny", d: "it's  'q'" },
  ],
];

describe("parseYaml: as kube-apiserver v1.36.2", () => {
  it.each(refused)("refuses %j", (text, expected) => {
    expect(reason(text)).toBe(expected);
  });

  it.each(accepted)("decodes %j", (text, expected) => {
    expect(value(text)).toEqual(expected);
  });
});

describe("parseYaml: nesting", () => {
  it("allows 10,000 nested flow collections and refuses one more, naming the line when it is not the first", () => {
    expect(reason(`${"[".repeat(10000)}${"]".repeat(10000)}`)).toBeUndefined();
    expect(reason(`${'{"a":'.repeat(10000)}1${"}".repeat(10000)}`)).toBeUndefined();
    expect(reason('{"a":'.repeat(10001))).toBe("yaml: exceeded max depth of 10000");
    expect(reason(`\n${'{"a":'.repeat(10001)}`)).toBe("yaml: line 2: exceeded max depth of 10000");
    expect(reason(`apiVersion: v1\nkind: X\nspec:\n  ${"[".repeat(10001)}`)).toBe(
      "yaml: line 4: exceeded max depth of 10000",
    );
  });

  it("allows 10,000 indentation levels and refuses one more", () => {
    let deepest = value(`${"- ".repeat(10000)}a\n`);
    for (let i = 0; i < 9999; i++) deepest = (deepest as unknown[])[0];
    expect(deepest).toEqual(["a"]);
    expect(reason(`${"- ".repeat(10001)}a\n`)).toBe("yaml: exceeded max depth of 10000");
    expect(reason(`x:\n${"- ".repeat(10001)}a\n`)).toBe("yaml: line 2: exceeded max depth of 10000");
  });

  it("refuses what nests deeper than encoding/json allows once converted, as kube's JSON reader words it", () => {
    const nested = (flow: number) => `a:\n${"  - ".repeat(5000)}${'{"a":'.repeat(flow)}1${"}".repeat(flow)}\n`;
    expect(reason(nested(4999))).toBeUndefined();
    expect(parseYaml(Buffer.from(nested(5001)))).toEqual({
      error: "invalid character '{' exceeded max depth",
      convertedJson: true,
    });
  });

  it("refuses the 3 MiB body that used to exhaust the process, and other hostile shapes, reading each once", () => {
    expect(reason('{"a":'.repeat(500000))).toBe("yaml: exceeded max depth of 10000");
    expect(reason("[".repeat(3 * 1024 * 1024))).toBe("yaml: exceeded max depth of 10000");
    expect(reason("- ".repeat(1024 * 1024))).toBe("yaml: exceeded max depth of 10000");
    expect(reason(`[${"a,".repeat(1024 * 1024)}`)).toBe("yaml: line 1: did not find expected node content");
    expect(reason(`x: "${"a\\n".repeat(1024 * 1024)}`)).toBe("yaml: found unexpected end of stream");
    expect(reason("[{a: [b, {c: d}]}, ".repeat(150000))).toBe("yaml: exceeded max depth of 10000");
  });
});

describe("parseYaml: anchors and aliases", () => {
  const laughs = (levels: number) => {
    const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < levels; i++) {
      const [name, prev] = [String.fromCharCode(97 + i), String.fromCharCode(96 + i)];
      lines.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(",")}]`);
    }
    return lines.join("\n");
  };

  it("refuses a billion laughs with go-yaml's alias rule, and accepts a few levels of it", () => {
    expect(reason(laughs(9))).toBe("yaml: document contains excessive aliasing");
    expect(reason(laughs(4))).toBe("yaml: document contains excessive aliasing");
    expect(reason(laughs(3))).toBeUndefined();
  });

  it("decodes each alias as a copy of what it names", () => {
    const decoded = value("x: &x {a: 1, b: [1, 2]}\np: *x\nq: [*x, *x]\n") as Record<string, unknown>;
    expect(decoded.p).toEqual({ a: 1, b: [1, 2] });
    expect(decoded.p).not.toBe(decoded.x);
    const [first, second] = decoded.q as unknown[];
    expect(first).toEqual(second);
    expect(first).not.toBe(second);
  });

  it("counts decode steps as go-yaml does: moderate use of aliases is fine, expansion that dwarfs the text is not", () => {
    const aliases = (anchor: string, count: number) =>
      `a: &a ${anchor}\n${Array.from({ length: count }, (_, i) => `k${i}: *a`).join("\n")}`;
    expect(Object.keys(value(aliases("x", 1200)) as object)).toHaveLength(1201);
    expect(Object.keys(value(aliases("[1,2,3,4,5,6,7,8,9,10]", 150)) as object)).toHaveLength(151);
    expect(reason(aliases(`[${"1,".repeat(999)}1]`, 150))).toBe("yaml: document contains excessive aliasing");
  });

  it("merges maps with <<, the earlier maps of a list winning, and reports repeats as strict mode does", () => {
    const parsed = parseYaml(Buffer.from("base: &b {a: 1, b: 2}\nm:\n  <<: [{a: 0, c: 3}, *b]\n  d: 4\n"));
    expect(parsed).toMatchObject({ value: { m: { a: 0, b: 2, c: 3, d: 4 } } });
    // The later map of the list is merged first, so the earlier one's `a` (line 3) is the repeat.
    expect(parsed).toMatchObject({ yamlDuplicates: ['line 3: key "a" already set in map'] });
  });
});

describe("parseYaml: bytes", () => {
  it("reads the input in 512-byte blocks as go-yaml's reader does: a bad byte shows only once its block is read", () => {
    expect(reason(Buffer.from("a: \xff\n", "latin1"))).toBe("yaml: invalid leading UTF-8 octet");
    expect(reason("a: b: c\nc: \u0001")).toBe("yaml: control characters are not allowed");
    expect(reason(`a: b: c\n${"#".repeat(600)}\n\u0001`)).toBe("yaml: mapping values are not allowed in this context");
  });

  it("reads UTF-8 and UTF-16 after a byte order mark", () => {
    expect(value("\ufeffa: 1\n")).toEqual({ a: 1 });
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("a: 1", "utf16le")]);
    expect(parseYaml(utf16)).toMatchObject({ value: { a: 1 } });
  });
});
