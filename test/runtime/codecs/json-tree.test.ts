// The walks of decoded JSON that keep their own stack: the same results as the recursive helpers they
// replace, at depths recursion does not survive.
import { describe, expect, it } from "vitest";
import {
  cloneJson,
  containerBeyondDepth,
  goJsonByteLength,
  goJsonText,
  jsonEqual,
  withoutNullMembers,
} from "../../../runtime/codecs/json-tree.js";
import { goJson } from "../../../runtime/errors/go-format.js";

/** `{"a":{"a":…leaf…}}`, `n` objects deep, built without recursion. */
function nested(n: number, leaf: unknown = 1): unknown {
  let value = leaf;
  for (let i = 0; i < n; i++) value = { a: value };
  return value;
}

function listed(n: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < n; i++) value = [value];
  return value;
}

const sample = {
  b: [1, "x<y", { z: null, "&": 1.5e21, small: 1e-7 }],
  a: { "\u2028": true, list: [[], {}] },
  c: "é",
};

describe("JSON walks with their own stack", () => {
  it("copies deeply, keeping a __proto__ member as data", () => {
    const source = JSON.parse('{"__proto__":{"x":1},"l":[{"y":[2]}]}') as Record<string, unknown>;
    const copy = cloneJson(source);
    expect(copy).toEqual(source);
    expect(Object.hasOwn(copy, "__proto__")).toBe(true);
    (copy.l as { y: number[] }[])[0]?.y.push(3);
    expect(source.l).toEqual([{ y: [2] }]);
  });

  it("drops null members at every depth, but not nulls in lists", () => {
    expect(withoutNullMembers({ a: null, b: { c: null, d: [null, { e: null }] } })).toEqual({
      b: { d: [null, {}] },
    });
  });

  it("compares values whatever their member order", () => {
    expect(jsonEqual({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBe(true);
    expect(jsonEqual({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual({}, [])).toBe(false);
    expect(jsonEqual(null, {})).toBe(false);
  });

  it("writes Go's JSON as goJson does", () => {
    expect(goJsonText(sample)).toBe(goJson(sample));
    expect(goJsonText({ a: undefined, b: 1 })).toBe('{"b":1}');
    expect(goJsonText("<")).toBe('"\\u003c"');
  });

  it("counts Go's JSON bytes", () => {
    expect(goJsonByteLength({ a: "<&>", b: "\u2028" })).toBe(Buffer.byteLength(goJson({ a: "<&>", b: "\u2028" })));
    expect(goJsonByteLength(nested(3000))).toBe(Buffer.byteLength(goJsonText(nested(3000))));
    expect(goJsonByteLength(null)).toBe(4);
  });

  it("finds the first container past a depth, in document order", () => {
    expect(containerBeyondDepth(nested(10), 11)).toBeUndefined();
    expect(containerBeyondDepth(nested(10), 9)).toBe("{");
    expect(containerBeyondDepth({ a: listed(3), b: nested(3) }, 3)).toBe("[");
    expect(containerBeyondDepth({ a: nested(3), b: listed(3) }, 3)).toBe("{");
    expect(containerBeyondDepth("x", 0)).toBeUndefined();
  });

  it("walks documents 20000 deep", () => {
    const deep = { list: listed(20000), map: nested(20000) };
    expect(jsonEqual(cloneJson(deep), deep)).toBe(true);
    expect(jsonEqual(withoutNullMembers(deep), deep)).toBe(true);
    expect(goJsonText(deep)).toHaveLength(16 + 40001 + 120001);
    expect(containerBeyondDepth(deep, 10000)).toBe("[");
  });
});
