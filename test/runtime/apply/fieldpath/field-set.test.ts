// Field sets: membership is per path, not inherited; the set operations behave as structured-merge-diff's
// (difference keeps a parent, recursive difference takes everything below a member), and paths come out
// in its order.
import { describe, expect, it } from "vitest";
import { FieldSet } from "../../../../runtime/apply/fieldpath/field-set.js";
import { fieldElement, type Path } from "../../../../runtime/apply/fieldpath/path-element.js";
import { pathText } from "../../../../runtime/apply/fieldpath/path-string.js";

const p = (text: string): Path => text.split(".").map(fieldElement);
const set = (...paths: string[]) => FieldSet.of(...paths.map(p));
const texts = (s: FieldSet) => s.paths().map(pathText);

describe("FieldSet", () => {
  it("holds exactly the paths inserted", () => {
    const s = set("a.b.c", "a");
    expect(s.has(p("a.b.c"))).toBe(true);
    expect(s.has(p("a"))).toBe(true);
    expect(s.has(p("a.b"))).toBe(false);
    expect(s.has([])).toBe(false);
    expect(s.size()).toBe(2);
    expect(new FieldSet().isEmpty()).toBe(true);
    expect(set("x").withPrefix(fieldElement("y")).isEmpty()).toBe(true);
  });

  it("lists a node's members before its children's paths, each sorted", () => {
    expect(texts(set("b.x", "c", "a.y", "a"))).toEqual([".a", ".c", ".a.y", ".b.x"]);
  });

  it("unions, intersects and subtracts", () => {
    const a = set("a.b", "a.c", "d");
    const b = set("a.c", "e");
    expect(texts(a.union(b))).toEqual([".d", ".e", ".a.b", ".a.c"]);
    expect(texts(a.intersection(b))).toEqual([".a.c"]);
    expect(texts(a.difference(b))).toEqual([".d", ".a.b"]);
    expect(a.union(b).equals(b.union(a))).toBe(true);
  });

  it("keeps a parent minus its child, but a recursive difference takes the subtree", () => {
    expect(texts(set("a", "a.b").difference(set("a.b")))).toEqual([".a"]);
    expect(texts(set("a.b", "a.c", "x").difference(set("a")))).toEqual([".x", ".a.b", ".a.c"]);
    expect(texts(set("a.b", "a.c", "x").recursiveDifference(set("a")))).toEqual([".x"]);
  });

  it("finds leaves", () => {
    expect(texts(set("a", "a.b", "c").leaves())).toEqual([".c", ".a.b"]);
  });

  it("comes out the same however the paths were inserted", () => {
    const all = Array.from({ length: 200 }, (_, i) => `n${String(i).padStart(3, "0")}.v`);
    const shuffled = all.map((_, i) => all[(i * 73) % all.length] as string);
    const backwards = [...all].reverse();
    const sorted = texts(set(...all));
    expect(texts(set(...shuffled))).toEqual(sorted);
    expect(texts(set(...backwards, ...backwards))).toEqual(sorted);
    const members = set(...backwards.map((path) => path.split(".")[0] as string));
    expect(members.members.map((pe) => ("field" in pe ? pe.field : ""))).toEqual(all.map((path) => path.split(".")[0]));
    expect(set(...backwards).equals(set(...all))).toBe(true);
  });
});
