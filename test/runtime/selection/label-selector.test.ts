import { describe, expect, it } from "vitest";
import { parseInt64 } from "../../../runtime/selection/label-selector.js";
import { parseLabelSelector } from "../../../runtime/selection/parse-label-selector.js";

const nameRegexMsg =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const valueRegexMsg =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

function parsed(s: string): string {
  const r = parseLabelSelector(s);
  if (!r.ok) throw new Error(r.error);
  return r.selector.toString();
}

function failure(s: string): string {
  const r = parseLabelSelector(s);
  return r.ok ? `parsed as ${r.selector.toString()}` : r.error;
}

describe("parseLabelSelector: canonical form", () => {
  it.each([
    ["", ""],
    [" \t\n", ""],
    ["x=a", "x=a"],
    ["y=b,x=a", "x=a,y=b"],
    [" x = a , y ", "x=a,y"],
    ["x==a", "x==a"],
    ["x!=a", "x!=a"],
    ["x in (b,a)", "x in (a,b)"],
    ["x in(a)", "x in (a)"],
    ["x in (a,a)", "x in (a)"],
    ["x notin (a)", "x notin (a)"],
    ["x in ()", "x in ()"],
    ["x in (,a)", "x in (,a)"],
    ["x in (a,)", "x in (,a)"],
    ["x in (a,,b)", "x in (,a,b)"],
    ["x", "x"],
    ["!x", "!x"],
    ["! x", "!x"],
    ["x>1", "x>1"],
    ["x<10", "x<10"],
    ["x=", "x="],
    ["x=,y", "x=,y"],
    ["in in (in,notin)", "in in (in,notin)"],
    ["notin=in", "notin=in"],
    ["example.com/app.kubernetes-io_x=V1.0-b_c", "example.com/app.kubernetes-io_x=V1.0-b_c"],
    ["b,a,!c,a=1", "a,a=1,b,!c"],
    // kube's lexer takes a NUL byte for the end of input when it starts a token…
    ["x=a \u0000garbage", "x=a"],
  ])("%j → %j", (input, canonical) => {
    expect(parsed(input)).toBe(canonical);
  });

  it("re-parses its own canonical form to the same string", () => {
    const s = parsed("z notin (c,b),a in (y,x),!m,k>5,e!=f");
    expect(s).toBe("a in (x,y),e!=f,k>5,!m,z notin (b,c)");
    expect(parsed(s)).toBe(s);
  });
});

describe("parseLabelSelector: errors", () => {
  it.each([
    ["x=a=b", "found '=', expected: ',' or 'end of string'"],
    ["x)", "unable to parse requirement: found ')', expected: in, notin, =, ==, !=, gt, lt"],
    ["x=a)", "found ')', expected: ',' or 'end of string'"],
    // …but inside a token it only ends that token.
    ["x=a\u0000garbage", "found 'garbage', expected: ',' or 'end of string'"],
    ["x<+10", `unable to parse requirement: values[0][x]: Invalid value: "+10": ${valueRegexMsg}`],
    ["x,", "found '', expected: identifier after ','"],
    ["x,,y", "found ',', expected: identifier after ','"],
    [",x", "found ',', expected: !, identifier, or 'end of string'"],
    ["=a", "found '=', expected: !, identifier, or 'end of string'"],
    ["!a=b", "found '=', expected: ',' or 'end of string'"],
    ["!", "unable to parse requirement: found '', expected: identifier"],
    ["!!a", "unable to parse requirement: found '!', expected: identifier"],
    ["x=(a)", "unable to parse requirement: found '(', expected: identifier"],
    ["x in a", "unable to parse requirement: found 'a' expected: '('"],
    ["x in (a", "unable to parse requirement: found '', expected: ',' or ')'"],
    ["x in (a b)", "unable to parse requirement: found 'b', expected: ',' or ')'"],
    ["x in (=)", "unable to parse requirement: found '=', expected: ',', ')' or identifier"],
    ["x in (,,)", "unable to parse requirement: found ')', expected: ',', or identifier"],
    ["x y", "unable to parse requirement: found 'y', expected: in, notin, =, ==, !=, gt, lt"],
    ["x gt 1", "unable to parse requirement: found 'gt', expected: in, notin, =, ==, !=, gt, lt"],
    ["x (a)", "unable to parse requirement: found '(', expected: in, notin, =, ==, !=, gt, lt"],
    [
      "x>a",
      `unable to parse requirement: values[0]: Invalid value: "a": for 'Gt', 'Lt' operators, the value must be an integer`,
    ],
    [
      "x<",
      `unable to parse requirement: values[0]: Invalid value: "": for 'Gt', 'Lt' operators, the value must be an integer`,
    ],
    [
      "x>9223372036854775808",
      `unable to parse requirement: values[0]: Invalid value: "9223372036854775808": for 'Gt', 'Lt' operators, the value must be an integer`,
    ],
    ["x>-1", `unable to parse requirement: values[0][x]: Invalid value: "-1": ${valueRegexMsg}`],
    [
      "x>-a",
      `unable to parse requirement: [values[0]: Invalid value: "-a": for 'Gt', 'Lt' operators, the value must be an integer, values[0][x]: Invalid value: "-a": ${valueRegexMsg}]`,
    ],
    ["app=-x", `unable to parse requirement: values[0][app]: Invalid value: "-x": ${valueRegexMsg}`],
    ["app in (ok,x-)", `unable to parse requirement: values[1][app]: Invalid value: "x-": ${valueRegexMsg}`],
    [
      `x=${"a".repeat(64)}`,
      `unable to parse requirement: values[0][x]: Invalid value: "${"a".repeat(64)}": must be no more than 63 bytes`,
    ],
    ["-x=a", `unable to parse requirement: <nil>: Invalid value: "-x": ${nameRegexMsg}`],
    ["!x.", `unable to parse requirement: <nil>: Invalid value: "x.": ${nameRegexMsg}`],
    [
      `${"k".repeat(64)}`,
      `unable to parse requirement: <nil>: Invalid value: "${"k".repeat(64)}": name part must be no more than 63 bytes`,
    ],
    ["/a", `unable to parse requirement: <nil>: Invalid value: "/a": prefix part must be non-empty`],
    ["a/", `unable to parse requirement: <nil>: Invalid value: "a/": name part must be non-empty; ${nameRegexMsg}`],
    [
      "Example.com/a",
      `unable to parse requirement: <nil>: Invalid value: "Example.com/a": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    ],
    [
      "a/b/c",
      `unable to parse requirement: <nil>: Invalid value: "a/b/c": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ],
  ])("%j", (input, message) => {
    expect(failure(input)).toBe(message);
  });
});

describe("LabelSelector.matches", () => {
  const labels = { app: "web", tier: "front", n: "10", empty: "" };
  it.each([
    ["", true],
    ["app=web", true],
    ["app==web", true],
    ["app=db", false],
    ["app!=db", true],
    ["app!=web", false],
    ["missing!=x", true],
    ["missing=", false],
    ["empty=", true],
    ["app in (db,web)", true],
    ["app in (db)", false],
    ["missing in (x)", false],
    ["app notin (db)", true],
    ["app notin (web)", false],
    ["missing notin (x)", true],
    ["app", true],
    ["missing", false],
    ["!missing", true],
    ["!app", false],
    ["n>9", true],
    ["n>10", false],
    ["n<11", true],
    ["n<10", false],
    ["app>1", false],
    ["missing<1", false],
    ["app=web,tier=front", true],
    ["app=web,tier=back", false],
  ])("%j → %s", (input, expected) => {
    const r = parseLabelSelector(input);
    if (!r.ok) throw new Error(r.error);
    expect(r.selector.matches(labels)).toBe(expected);
  });

  it("treats missing labels as an empty set", () => {
    const r = parseLabelSelector("!a");
    expect(r.ok && r.selector.matches(undefined)).toBe(true);
  });

  it("does not see inherited properties as labels", () => {
    const r = parseLabelSelector("constructor");
    expect(r.ok && r.selector.matches({})).toBe(false);
  });

  it("reports the value an exact-match requirement pins", () => {
    const r = parseLabelSelector("a=1,b in (2),c in (3,4),d!=5");
    if (!r.ok) throw new Error(r.error);
    expect(["a", "b", "c", "d", "e"].map((k) => r.selector.requiresExactMatch(k))).toEqual([
      "1",
      "2",
      undefined,
      undefined,
      undefined,
    ]);
  });
});

describe("parseInt64", () => {
  it.each([
    ["0", 0n],
    ["-9223372036854775808", -(2n ** 63n)],
    ["+7", 7n],
    ["9223372036854775807", 2n ** 63n - 1n],
    ["9223372036854775808", undefined],
    ["1_000", undefined],
    [" 1", undefined],
    ["0x10", undefined],
    ["", undefined],
  ])("%j", (input, expected) => {
    expect(parseInt64(input)).toBe(expected);
  });
});
