import { describe, expect, it } from "vitest";
import { CelError, type CelList, CelMap, type CelValue } from "../../../../../runtime/cel/common/values.js";
import { URLValue, urlLibrary } from "../../../../../runtime/cel/library/kubernetes/url.js";
import { call, overload } from "./call-overload.js";

const url = (s: string) => call(urlLibrary, "string_to_url", s);

function get(s: string, getter: string): CelValue {
  return call(urlLibrary, `url_get_${getter}`, url(s));
}

function queryOf(s: string): Record<string, string[]> {
  const m = get(s, "query");
  if (!(m instanceof CelMap)) throw new Error("not a map");
  const out: Record<string, string[]> = {};
  for (const [k, v] of m.entries()) out[k as string] = (v as CelList).toArray() as string[];
  return out;
}

describe("url library (kubernetes.urls)", () => {
  it.each([
    ["https://user:pass@example.com:80/path?query=val#fragment", true],
    ["/absolute-path", true],
    ["https://example.com", true],
    ["mailto:someone@example.com", true],
    ["*", true],
    ["https://a:b:c/", false],
    ["../relative-path", false],
    ["relative", false],
    ["", false],
    ["http://exa mple.com/", false],
    ["http://[::1/", false],
    ["http://[1.2.3.4]/", false],
    ["http://example.com:80:80/", false],
    ["http://example.com/\u0007", false],
    [":foo", false],
  ])("isURL(%j) is %s", (input, valid) => {
    expect(call(urlLibrary, "is_url_string", input)).toBe(valid);
    expect(url(input) instanceof URLValue).toBe(valid);
  });

  it.each([
    [
      "https://a:b:c/",
      'URL parse error during conversion from string: parse "https://a:b:c/": invalid port ":b:c" after host',
    ],
    [
      "../relative-path",
      'URL parse error during conversion from string: parse "../relative-path": invalid URI for request',
    ],
    ["", 'URL parse error during conversion from string: parse "": empty url'],
    [":foo", 'URL parse error during conversion from string: parse ":foo": missing protocol scheme'],
    ["http://[::1/", "URL parse error during conversion from string: parse \"http://[::1/\": missing ']' in host"],
    [
      "http://[1.2.3.4]/",
      'URL parse error during conversion from string: parse "http://[1.2.3.4]/": invalid IP-literal',
    ],
    [
      "http://[foo]/",
      'URL parse error during conversion from string: parse "http://[foo]/": invalid host: ParseAddr("foo"): unable to parse IP',
    ],
    ["http://a%20b/", 'URL parse error during conversion from string: parse "http://a%20b/": invalid URL escape "%20"'],
    [
      "http://exa mple.com/",
      'URL parse error during conversion from string: parse "http://exa mple.com/": invalid character " " in host name',
    ],
    ["http://x/%zz", 'URL parse error during conversion from string: parse "http://x/%zz": invalid URL escape "%zz"'],
    [
      "http://u s@x/",
      'URL parse error during conversion from string: parse "http://u s@x/": net/url: invalid userinfo',
    ],
    [
      "http://x/\n",
      'URL parse error during conversion from string: parse "http://x/\\n": net/url: invalid control character in URL',
    ],
  ])("url(%j) fails with Go's text", (input, message) => {
    const v = url(input);
    expect(v).toBeInstanceOf(CelError);
    expect((v as CelError).message).toBe(message);
  });

  it.each([
    ["/path", "scheme", ""],
    ["https://example.com/", "scheme", "https"],
    ["HTTPS://example.com/", "scheme", "https"],
    ["https://example.com:80/", "host", "example.com:80"],
    ["https://example.com/", "host", "example.com"],
    ["https://[::1]:80/", "host", "[::1]:80"],
    ["https://[::1]/", "host", "[::1]"],
    ["https://[fe80::1%25en0]:8080/", "host", "[fe80::1%en0]:8080"],
    ["/path", "host", ""],
    ["https://example.com:80/", "hostname", "example.com"],
    ["https://127.0.0.1:80/", "hostname", "127.0.0.1"],
    ["https://[::1]:80/", "hostname", "::1"],
    ["/path", "hostname", ""],
    ["https://example.com:80/", "port", "80"],
    ["https://example.com/", "port", ""],
    ["https://example.com:/", "port", ""],
    ["/path", "port", ""],
    ["https://example.com/path", "escaped_path", "/path"],
    ["https://example.com/path with spaces/", "escaped_path", "/path%20with%20spaces/"],
    ["https://example.com/a%2Fb", "escaped_path", "/a%2Fb"],
    ["https://example.com/caf\u00e9", "escaped_path", "/caf%C3%A9"],
    ["https://example.com", "escaped_path", ""],
    ["https://example.com/p#frag", "escaped_path", "/p"],
  ])("url(%j) get %s is %j", (input, getter, expected) => {
    expect(get(input, getter)).toBe(expected);
  });

  it("reads the query as a map of lists, unescaped, repeated keys collected", () => {
    expect(queryOf("https://example.com/path?k1=a&k2=b&k2=c")).toEqual({ k1: ["a"], k2: ["b", "c"] });
    expect(queryOf("https://example.com/path?key with spaces=value with spaces")).toEqual({
      "key with spaces": ["value with spaces"],
    });
    expect(queryOf("https://example.com/path?a=1+2&b=%41&c&d=x%zz&e;f=1&=g")).toEqual({
      a: ["1 2"],
      b: ["A"],
      c: [""],
      "": ["g"],
    });
    expect(queryOf("https://example.com/path?")).toEqual({});
    expect(queryOf("https://example.com/path")).toEqual({});
    expect(queryOf("https://example.com/path?q=1#frag")).toEqual({ q: ["1"] });
  });

  it("compares URLs by their printed form", () => {
    expect((url("https://example.com/a b") as URLValue).equals(url("https://example.com/a%20b"))).toBe(true);
    expect((url("HTTPS://example.com/") as URLValue).equals(url("https://example.com/"))).toBe(true);
    expect((url("https://example.com/") as URLValue).equals(url("https://example.com"))).toBe(false);
    expect(String(url("https://user:p%40ss@example.com/p?q#f g"))).toBe("https://user:p%40ss@example.com/p?q#f%20g");
    expect(String(url("file:///etc/hosts"))).toBe("file:///etc/hosts");
  });

  it("charges url() by the length of its argument, statically and at run time", () => {
    const cost = overload(urlLibrary, "string_to_url").cost;
    expect(cost?.estimate?.([{ min: 0, max: 100 }])).toEqual({ min: 0, max: 10 });
    expect(cost?.actual?.(["https://example.com/"], null)).toBe(2);
    expect(overload(urlLibrary, "is_url_string").cost).toBeUndefined();
  });
});
