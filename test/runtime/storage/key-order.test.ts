import { describe, expect, it } from "vitest";
import { compareKeys, prefixEnd } from "../../../runtime/storage/key-order.js";

describe("compareKeys", () => {
  it("orders keys as their UTF-8 bytes", () => {
    const keys = ["/b", "/a/\u{1F600}", "/a/\uFFFD", "/a", "/a/z", "/a/"];
    const byBytes = [...keys].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
    expect([...keys].sort(compareKeys)).toEqual(byBytes);
    expect(byBytes).toEqual(["/a", "/a/", "/a/z", "/a/\uFFFD", "/a/\u{1F600}", "/b"]);
  });
});

describe("prefixEnd", () => {
  it("increments the last code point, carrying over U+10FFFF", () => {
    expect(prefixEnd("/registry/pods/")).toBe("/registry/pods0");
    expect(prefixEnd("a\u{10FFFF}")).toBe("b");
    expect(prefixEnd("a\uD7FF")).toBe("a\uE000");
    expect(prefixEnd("")).toBeUndefined();
    expect(prefixEnd("\u{10FFFF}")).toBeUndefined();
  });
});
