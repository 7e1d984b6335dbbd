// JSON Patch as kube-apiserver answers it: the Statuses of a bad body, of too many operations and of a
// failed operation, strict-decoding problems, and the ways gopkg.in/evanphx/json-patch.v4 departs from
// RFC 6902 that clients can see.
import { describe, expect, it } from "vitest";
import type { FieldValidation } from "../../../runtime/codecs/field-validation.js";
import { StatusError } from "../../../runtime/errors/status-error.js";
import {
  applyJsonPatch,
  decodeJsonPatch,
  maxAccumulatedCopyBytes,
  maxJsonPatchOperations,
} from "../../../runtime/patch/json-patch.js";

function thrown(action: () => unknown): StatusError {
  let caught: unknown;
  try {
    action();
  } catch (e) {
    caught = e;
  }
  if (caught instanceof StatusError) return caught;
  throw new Error(`expected a StatusError, not ${String(caught)}`);
}

/** The library's message behind kube's 422, for a patch applied to `doc`. */
function failure(doc: unknown, patch: unknown, level: FieldValidation = "Warn"): string {
  const error = thrown(() => applyJsonPatch(doc, JSON.stringify(patch), level));
  expect(error.code).toBe(422);
  return error.cause instanceof Error ? error.cause.message : "";
}

const apply = (doc: unknown, patch: unknown) => applyJsonPatch(doc, JSON.stringify(patch));

function decodeMessage(body: string, level: FieldValidation): string {
  const error = thrown(() => decodeJsonPatch(body, level));
  expect(error.code).toBe(400);
  expect(error.reason).toBe("BadRequest");
  return error.message;
}

describe("decodeJsonPatch", () => {
  it("words malformed JSON as Go's scanner, prefixed under Warn and Strict only", () => {
    expect(decodeMessage('[{"op": "add",}]', "Warn")).toBe(
      "error decoding patch: invalid character '}' looking for beginning of object key string",
    );
    expect(decodeMessage("", "Strict")).toBe("error decoding patch: unexpected end of JSON input");
    expect(decodeMessage("[] x", "Ignore")).toBe("invalid character 'x' after top-level value");
  });

  it("refuses a body that is not a list of operations in the type names of the decoder used", () => {
    expect(decodeMessage('{"op": "add"}', "Warn")).toBe(
      "error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp",
    );
    expect(decodeMessage('{"op": "add"}', "Ignore")).toBe(
      "json: cannot unmarshal object into Go value of type jsonpatch.Patch",
    );
    expect(decodeMessage('[{"op": "test"}, 1]', "Strict")).toBe(
      "error decoding patch: json: cannot unmarshal number into Go value of type handlers.jsonPatchOp",
    );
    expect(decodeMessage('[["add"]]', "Ignore")).toBe(
      "json: cannot unmarshal array into Go value of type jsonpatch.Operation",
    );
  });

  it("refuses an op, path or from that is not a string under Warn and Strict", () => {
    expect(decodeMessage('[{"op": "add", "path": 1, "value": 2}]', "Warn")).toBe(
      "error decoding patch: json: cannot unmarshal number into Go struct field jsonPatchOp.path of type string",
    );
    expect(decodeMessage('[{"op": true}]', "Strict")).toBe(
      "error decoding patch: json: cannot unmarshal bool into Go struct field jsonPatchOp.op of type string",
    );
  });

  it("leaves mistyped members to the operation under Ignore", () => {
    const patch = decodeJsonPatch('[{"op": true, "path": "/a"}]', "Ignore");
    const error = thrown(() => applyJsonPatch({}, patch));
    expect(error.code).toBe(422);
    expect((error.cause as Error).message).toBe("Unexpected kind: unknown");
    expect(failure({}, [{ op: "replace", path: 5, value: 1 }], "Ignore")).toBe(
      "replace operation failed to decode path: json: cannot unmarshal number into Go value of type string",
    );
  });

  it("reads null as a patch of no operations", () => {
    expect(decodeJsonPatch("null", "Warn").operations).toEqual([]);
    expect(applyJsonPatch({ a: 1 }, "null")).toEqual({ a: 1 });
  });

  it("answers 413 past 10000 operations", () => {
    const ops = (n: number) => JSON.stringify(Array.from({ length: n }, () => ({ op: "test", path: "/a", value: 1 })));
    expect(decodeJsonPatch(ops(maxJsonPatchOperations), "Warn").operations).toHaveLength(10000);
    const error = thrown(() => decodeJsonPatch(ops(maxJsonPatchOperations + 1), "Warn"));
    expect(error.status).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: "Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001",
      reason: "RequestEntityTooLarge",
      code: 413,
    });
  });

  it("reports unknown and repeated operation members as kube's field validation integration test does", () => {
    const body = `[
      {"op": "add", "path": "/spec/unknown1", "value": "val1", "foo":"bar"},
      {"op": "add", "path": "/spec/unknown2", "path": "/spec/unknown3", "value": "val1"},
      {"op": "add", "path": "/spec/unknownDupe", "value": "valDupe"},
      {"op": "add", "path": "/spec/unknownDupe", "value": "valDupe2"}
    ]`;
    expect(decodeJsonPatch(body, "Warn").problems).toEqual([
      'json patch unknown field "[0].foo"',
      'json patch duplicate field "[1].path"',
    ]);
    expect(decodeJsonPatch(body, "Strict").problems).toHaveLength(2);
    expect(decodeJsonPatch(body, "Ignore").problems).toEqual([]);
    // The last of repeated members counts, as in Go.
    expect(applyJsonPatch({ spec: {} }, body)).toEqual({
      spec: { unknown1: "val1", unknown3: "val1", unknownDupe: "valDupe2" },
    });
  });

  it("reports problems in document order, repeats inside values included, each once", () => {
    const body = '[{"op":"add","path":"/a","value":{"k":1,"k":2,"l":[{"m":1,"m":2}]},"op":"add","Op":1,"Op":2}]';
    expect(decodeJsonPatch(body, "Warn").problems).toEqual([
      'json patch duplicate field "[0].value.k"',
      'json patch duplicate field "[0].value.l[0].m"',
      'json patch duplicate field "[0].op"',
      'json patch unknown field "[0].Op"',
    ]);
  });
});

describe("applyJsonPatch failures", () => {
  it("answers every failure with kube's generic 422, keeping the library's message as the cause", () => {
    const error = thrown(() => apply({ spec: { replicas: 1 } }, [{ op: "test", path: "/spec/replicas", value: 2 }]));
    expect(error.status).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: "the server rejected our request due to an error in our request",
      reason: "Invalid",
      // NewGenericServerResponse always carries details, empty here (as kube-apiserver v1.36 answers).
      details: {},
      code: 422,
    });
    expect((error.cause as Error).message).toBe("testing value /spec/replicas failed: test failed");
  });

  const failures: [unknown, string][] = [
    [{ op: "add", value: 1 }, "add operation failed to decode path: missing value"],
    [{ op: "add", path: "/x/y", value: 1 }, 'add operation does not apply: doc is missing path: "/x/y": missing value'],
    [
      { op: "add", path: "/list/x", value: 1 },
      "error in add for path: '/list/x': value was not a proper array index: 'x': strconv.Atoi: parsing \"x\": invalid syntax",
    ],
    [
      { op: "add", path: "/list/3", value: 1 },
      "error in add for path: '/list/3': Unable to access invalid index: 3: invalid index referenced",
    ],
    [
      { op: "remove", path: "/a/c" },
      "error in remove for path: '/a/c': Unable to remove nonexistent key: c: missing value",
    ],
    [
      { op: "remove", path: "/list/2" },
      "error in remove for path: '/list/2': Unable to access invalid index: 2: invalid index referenced",
    ],
    [
      { op: "replace", value: 1 },
      "replace operation failed to decode path: operation missing path field: missing value",
    ],
    [
      { op: "replace", path: "/list/-", value: 1 },
      "replace operation does not apply: doc is missing key: /list/-: missing value",
    ],
    [{ op: "replace", path: "", value: 1 }, "replace operation value must be object or array: %!w(<nil>)"],
    [{ op: "move", path: "/b" }, "move operation failed to decode from: operation, missing from field: missing value"],
    [
      { op: "move", from: "/a/c", path: "/b" },
      "error in move for path: 'c': Unable to remove nonexistent key: c: missing value",
    ],
    [
      { op: "move", from: "/a", path: "/a/b" },
      "move operation does not apply: doc is missing destination path: /a/b: missing value",
    ],
    [
      { op: "copy", from: "/list/5", path: "/b" },
      "error in copy for from: '/list/5': Unable to access invalid index: 5: invalid index referenced",
    ],
    [
      { op: "copy", from: "/a", path: "/x/y" },
      "copy operation does not apply: doc is missing destination path: /x/y: missing value",
    ],
    [{ op: "test", path: "/x/y", value: 1 }, "test operation does not apply: is missing path: /x/y: missing value"],
    [
      { op: "test", path: "/list/9", value: 1 },
      "error in test for path: '/list/9': Unable to access invalid index: 9: invalid index referenced",
    ],
    [{ op: "ADD", path: "/b", value: 1 }, "Unexpected kind: ADD"],
    [null, "Unexpected kind: unknown"],
  ];

  it.each(failures)("words the failure of %j as the library does", (op, message) => {
    expect(failure({ a: { b: 1 }, list: [1, 2] }, [op])).toBe(message);
  });

  it("refuses indices outside int64 as strconv.Atoi does", () => {
    expect(failure([1], [{ op: "remove", path: "/99999999999999999999" }])).toBe(
      "error in remove for path: '/99999999999999999999': strconv.Atoi: parsing \"99999999999999999999\": value out of range",
    );
  });

  it("stops at 3 MiB of accumulated copies", () => {
    const big = "x".repeat(1024 * 1024);
    const copy = (to: string) => ({ op: "copy", from: "/big", path: to });
    expect(Object.keys(apply({ big }, [copy("/c1"), copy("/c2")]) as object)).toEqual(["big", "c1", "c2"]);
    expect(failure({ big }, [copy("/c1"), copy("/c2"), copy("/c3")])).toBe(
      `Unable to complete the copy, the accumulated size increase of copy is ${3 * (big.length + 2)}, exceeding the limit ${maxAccumulatedCopyBytes}`,
    );
  });

  it("leaves the document as it was, whatever happens", () => {
    const doc = { a: [1, 2], b: { c: 1 } };
    const before = structuredClone(doc);
    apply(doc, [
      { op: "remove", path: "/a/0" },
      { op: "add", path: "/b/d", value: 2 },
    ]);
    failure(doc, [
      { op: "remove", path: "/a/0" },
      { op: "test", path: "/b/c", value: 2 },
    ]);
    expect(doc).toEqual(before);
  });
});

describe("applyJsonPatch as the library reads paths and values", () => {
  it("counts negative indices from the end; for add, -1 is the end itself", () => {
    const doc = { list: ["a", "b", "c"] };
    expect(apply(doc, [{ op: "add", path: "/list/-1", value: "z" }])).toEqual({ list: ["a", "b", "c", "z"] });
    expect(apply(doc, [{ op: "add", path: "/list/-2", value: "z" }])).toEqual({ list: ["a", "b", "z", "c"] });
    expect(apply(doc, [{ op: "remove", path: "/list/-1" }])).toEqual({ list: ["a", "b"] });
    expect(apply(doc, [{ op: "replace", path: "/list/-3", value: "z" }])).toEqual({ list: ["z", "b", "c"] });
    expect(apply(doc, [{ op: "test", path: "/list/-1", value: "c" }])).toEqual(doc);
    expect(apply(doc, [{ op: "move", from: "/list/-1", path: "/list/0" }])).toEqual({ list: ["c", "a", "b"] });
    expect(failure(doc, [{ op: "remove", path: "/list/-4" }])).toBe(
      "error in remove for path: '/list/-4': Unable to access invalid index: -4: invalid index referenced",
    );
  });

  it("takes leading zeros and a plus sign in indices, on the way and at the end", () => {
    const doc = { list: [{ name: "a" }, { name: "b" }] };
    expect(apply(doc, [{ op: "replace", path: "/list/01/name", value: "c" }])).toEqual({
      list: [{ name: "a" }, { name: "c" }],
    });
    expect(apply(doc, [{ op: "remove", path: "/list/+0" }])).toEqual({ list: [{ name: "b" }] });
  });

  it("drops what stands before the first slash", () => {
    expect(apply({ a: 1 }, [{ op: "add", path: "x/b", value: 2 }])).toEqual({ a: 1, b: 2 });
    expect(failure({ a: 1 }, [{ op: "add", path: "b", value: 2 }])).toBe(
      'add operation does not apply: doc is missing path: "b": missing value',
    );
  });

  it("unescapes ~1 then ~0 in one pass and keeps any other ~", () => {
    const doc = { "a/b": 1, "~1": 2, "c~2": 3 };
    expect(
      apply(doc, [
        { op: "test", path: "/a~1b", value: 1 },
        { op: "test", path: "/~01", value: 2 },
        { op: "test", path: "/c~2", value: 3 },
      ]),
    ).toEqual(doc);
  });

  it("reads a missing member as null", () => {
    expect(apply({ a: 1 }, [{ op: "replace", path: "/b", value: 2 }])).toEqual({ a: 1, b: 2 });
    expect(apply({ a: 1 }, [{ op: "copy", from: "/b", path: "/c" }])).toEqual({ a: 1, c: null });
    expect(apply({ a: 1 }, [{ op: "test", path: "/b", value: null }])).toEqual({ a: 1 });
    expect(apply({ a: 1 }, [{ op: "test", path: "/b" }])).toEqual({ a: 1 });
    expect(failure({ a: 1 }, [{ op: "test", path: "/a" }])).toBe("testing value /a failed: test failed");
  });

  it("uses null for an operation without value", () => {
    expect(apply({ a: 1 }, [{ op: "add", path: "/b" }])).toEqual({ a: 1, b: null });
  });

  it('replaces and tests the whole document with the path "", but does not add there', () => {
    expect(apply({ a: 1 }, [{ op: "replace", path: "", value: [1] }])).toEqual([1]);
    expect(apply({ a: { b: 1 } }, [{ op: "test", path: "", value: { a: { b: 1 } } }])).toEqual({ a: { b: 1 } });
    expect(failure({ a: 1 }, [{ op: "test", path: "", value: { a: 2 } }])).toBe("testing value  failed: test failed");
    expect(failure({ a: 1 }, [{ op: "add", path: "", value: {} }])).toBe(
      'add operation does not apply: doc is missing path: "": missing value',
    );
  });

  it("tests by JSON equality: member order aside, types count", () => {
    const doc = { a: { x: [1, { y: null }], z: "1" } };
    expect(apply(doc, [{ op: "test", path: "/a", value: { z: "1", x: [1, { y: null }] } }])).toEqual(doc);
    expect(failure(doc, [{ op: "test", path: "/a/z", value: 1 }])).toBe("testing value /a/z failed: test failed");
    expect(failure(doc, [{ op: "test", path: "/a/x", value: [1] }])).toBe("testing value /a/x failed: test failed");
  });

  it("keeps integers exact up to 2^53 and reads larger ones as the nearest double, as kapi stores them", () => {
    const doc = { spec: { n: 2 ** 53 - 1 } };
    expect(apply(doc, JSON.parse('[{"op":"test","path":"/spec/n","value":9007199254740991}]'))).toEqual(doc);
    expect(applyJsonPatch({}, '[{"op":"add","path":"/n","value":9223372036854775807}]')).toEqual({ n: 2 ** 63 });
  });

  it("moves and copies values without sharing them", () => {
    const result = apply({ a: { b: [1] } }, [
      { op: "copy", from: "/a", path: "/c" },
      { op: "add", path: "/c/b/-", value: 2 },
      { op: "move", from: "/a/b", path: "/d" },
    ]);
    expect(result).toEqual({ a: {}, c: { b: [1, 2] }, d: [1] });
  });

  it("applies a decoded patch again to the same effect, as a retried request does", () => {
    const patch = decodeJsonPatch(
      '[{"op":"add","path":"/a","value":{"b":[]}},{"op":"add","path":"/a/b/-","value":1}]',
      "Warn",
    );
    const first = applyJsonPatch({}, patch);
    expect(applyJsonPatch({}, patch)).toEqual(first);
    expect(first).toEqual({ a: { b: [1] } });
  });

  it("keeps __proto__ an ordinary member", () => {
    const result = applyJsonPatch({}, '[{"op":"add","path":"/__proto__","value":{"polluted":true}}]') as object;
    expect(Object.keys(result)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
