import { describe, expect, it } from "vitest";
import { ArrayList, CelUint, type CelValue, HashMap } from "../../../../../runtime/cel/common/values.js";
import { concatLists } from "../../../../../runtime/cel/library/standard/containers.js";
import { call, message } from "./overloads.js";

const list = (...items: CelValue[]) => new ArrayList(items);

describe("size", () => {
  it.each<[string, CelValue, bigint]>([
    ["size_string", "", 0n],
    ["size_string", "πέντε", 5n],
    ["string_size", "🐱😀", 2n],
    ["size_bytes", new Uint8Array([1, 2, 3]), 3n],
    ["bytes_size", new Uint8Array([]), 0n],
    ["size_list", list(1n, 2n, 3n), 3n],
    ["list_size", list(), 0n],
    [
      "size_map",
      new HashMap([
        [1n, "one"],
        [2n, "two"],
      ]),
      2n,
    ],
    ["map_size", new HashMap(), 0n],
  ])("%s(%s)", (id, v, n) => {
    expect(call(id, v)).toBe(n);
  });
});

describe("indexing", () => {
  const l = list(7n, 8n, 9n);
  it.each<[CelValue, CelValue]>([
    [0n, 7n],
    [2n, 9n],
    [new CelUint(1n), 8n],
    [0.0, 7n],
    [2.0, 9n],
  ])("[7, 8, 9][%s]", (i, v) => {
    expect(call("index_list", l, i)).toBe(v);
  });

  it.each<[CelValue, string]>([
    [3n, "index out of bounds: 3"],
    [-1n, "index out of bounds: -1"],
    [new CelUint(5n), "index out of bounds: 5"],
    [3.0, "index out of bounds: 3"],
    [0.1, "unsupported index value 0.1 in list"],
    ["", "unsupported index type 'string' in list"],
    [new CelUint(18446744073709551615n), "unsupported index value 18446744073709551615 in list"],
  ])("[7, 8, 9][%s] fails", (i, text) => {
    expect(message(call("index_list", l, i))).toBe(text);
  });

  it("finds map keys across numeric types", () => {
    const m = new HashMap([
      [1n, "one"],
      ["k", "v"],
      [new CelUint(2n), "two"],
      [true, "yes"],
    ] as [CelValue, CelValue][]);
    expect(call("index_map", m, 1n)).toBe("one");
    expect(call("index_map", m, new CelUint(1n))).toBe("one");
    expect(call("index_map", m, 1.0)).toBe("one");
    expect(call("index_map", m, 2n)).toBe("two");
    expect(call("index_map", m, "k")).toBe("v");
    expect(call("index_map", m, true)).toBe("yes");
    expect(message(call("index_map", m, 1.5))).toBe("no such key: 1.5");
    expect(message(call("index_map", m, "x"))).toBe("no such key: x");
    expect(message(call("index_map", m, 3n))).toBe("no such key: 3");
  });
});

describe("in", () => {
  it.each<[CelValue, CelValue, boolean]>([
    [7n, list(), false],
    [new CelUint(4n), list(new CelUint(4n)), true],
    ["alpha", list("alpha", "beta"), true],
    [3.0, list(5n, 4n, 3n), true],
    [new CelUint(3n), list(5.0, 3.0), true],
    [3n, list(5n, 4n), false],
    ["hawaiian", list("meat", "veggie"), false],
    ["k", new HashMap([["k", 1n]]), true],
    [1.0, new HashMap([[1n, 1n]]), true],
    [1.5, new HashMap([[1n, 1n]]), false],
    ["k", new HashMap([[1n, 1n]]), false],
  ])("%s in %s", (v, c, result) => {
    expect(call(v instanceof HashMap || c instanceof HashMap ? "in_map" : "in_list", v, c)).toBe(result);
  });
});

describe("Kubernetes list types in concatenation", () => {
  it("appends for atomic lists", () => {
    expect((concatLists(list(1n, 2n), list(2n, 3n)) as ArrayList).items).toEqual([1n, 2n, 2n, 3n]);
  });

  it("unions set lists, keeping the left order and type", () => {
    const left = list("a", "b");
    left.listType = "set";
    const sum = concatLists(left, list("b", "c", "c")) as ArrayList;
    expect(sum.items).toEqual(["a", "b", "c"]);
    expect(sum.listType).toBe("set");
  });

  it("merges map lists by key, replacing in place and appending the rest", () => {
    const entry = (name: string, port: bigint) =>
      new HashMap([
        ["name", name],
        ["port", port],
      ] as [CelValue, CelValue][]);
    const left = list(entry("a", 1n), entry("b", 2n));
    left.listType = "map";
    left.mapKeys = ["name"];
    const sum = concatLists(left, list(entry("b", 20n), entry("c", 3n))) as ArrayList;
    expect(sum.items.map((e) => [(e as HashMap).get("name"), (e as HashMap).get("port")])).toEqual([
      ["a", 1n],
      ["b", 20n],
      ["c", 3n],
    ]);
    expect(sum.mapKeys).toEqual(["name"]);
  });
});
