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

  it("treats a surrogate pair as one code point and a lone surrogate as its own", () => {
    expect(prefixEnd("a\u{1F600}")).toBe("a\u{1F601}");
    expect(prefixEnd("a\u{FFFF}")).toBe("a\u{10000}");
    expect(prefixEnd("a\u{1F600}\u{10FFFF}")).toBe("a\u{1F601}");
    expect(prefixEnd("a\uDBFF")).toBe("a\uDC00");
    expect(prefixEnd("a\uDC00")).toBe("a\uDC01");
    expect(prefixEnd("\uDC00\uD800")).toBe("\uDC00\uD801");
  });

  it("is the smallest key after every key with the prefix, in UTF-8 byte order", () => {
    const prefix = "/registry/a\u{1F600}/";
    const end = prefixEnd(prefix) as string;
    for (const key of [prefix, `${prefix}z`, `${prefix}\u{10FFFF}\u{10FFFF}`])
      expect(compareKeys(key, end)).toBeLessThan(0);
    expect(end.startsWith(prefix)).toBe(false);
  });
});
