import { describe, expect, it } from "vitest";
import { celReservedWords, escapeName, unescapeName } from "../../../../runtime/cel/rules/escaping.js";

const validIdentifier = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

describe("property name escaping", () => {
  it.each([
    ["a.a", "a__dot__a"],
    ["a-a", "a__dash__a"],
    ["a__a", "a__underscores__a"],
    ["a.-/__a", "a__dot____dash____slash____underscores__a"],
    ["a._a", "a__dot___a"],
    ["a__.__a", "a__underscores____dot____underscores__a"],
    ["a___a", "a__underscores___a"],
    ["a____a", "a__underscores____underscores__a"],
    ["a__dot__a", "a__underscores__dot__underscores__a"],
    ["a__underscores__a", "a__underscores__underscores__underscores__a"],
    ["-leading", "__dash__leading"],
    ["/", "__slash__"],
    ["app.kubernetes.io/name", "app__dot__kubernetes__dot__io__slash__name"],
    // Words the lexer reserves, only when they are the whole name.
    ...[...celReservedWords].map((w) => [w, `__${w}__`] as [string, string]),
    ["namespaces", "namespaces"],
    ["x-in", "x__dash__in"],
    // Macro and function names live in another namespace than fields.
    ...["has", "all", "exists", "exists_one", "filter", "size", "matches", "duration", "timestamp", "getDate"].map(
      (w) => [w, w] as [string, string],
    ),
    ["_if", "_if"],
    ["_anything", "_anything"],
  ])("%s escapes to %s and back", (name, escaped) => {
    expect(escapeName(name)).toBe(escaped);
    expect(validIdentifier.test(escaped)).toBe(true);
    expect(unescapeName(escaped)).toBe(name);
  });

  it.each(["@", "1up", "👑", "/👑", "a b", "", "a:b"])("%j cannot be written in CEL", (name) => {
    expect(escapeName(name)).toBeUndefined();
  });

  it.each(["__int__extra", "__illegal__"])("%s is a malformed escape", (escaped) => {
    expect(unescapeName(escaped)).toBeUndefined();
  });

  it("round-trips every name it accepts", () => {
    const alphabet = "ab_.-/Z9";
    for (let i = 0; i < 2000; i++) {
      let name = "";
      for (let n = 1 + (i % 7), x = i * 7919; n > 0; n--, x = Math.floor(x / alphabet.length) + i) {
        name += alphabet[x % alphabet.length];
      }
      const escaped = escapeName(name);
      if (escaped === undefined) continue;
      expect(validIdentifier.test(escaped), `${name} → ${escaped}`).toBe(true);
      expect(unescapeName(escaped)).toBe(name);
    }
  });
});
