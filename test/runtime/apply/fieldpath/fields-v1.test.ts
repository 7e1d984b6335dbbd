// FieldsV1 encoding: `.` first where a node is owned and has owned children, keys in path element order
// whatever order they were inserted in, unknown key kinds dropped on reading, malformed ones refused.
import { describe, expect, it } from "vitest";
import { FieldSet } from "../../../../runtime/apply/fieldpath/field-set.js";
import { decodeFieldsV1, encodeFieldsV1, fieldsV1Of } from "../../../../runtime/apply/fieldpath/fields-v1.js";
import {
  fieldElement,
  indexElement,
  keyElement,
  valueElement,
} from "../../../../runtime/apply/fieldpath/path-element.js";
import { pathText } from "../../../../runtime/apply/fieldpath/path-string.js";

const f = fieldElement;

describe("FieldsV1", () => {
  it("writes kube's bytes", () => {
    const item = keyElement([{ name: "name", value: "nginx" }]);
    const set = FieldSet.of(
      [f("spec"), f("containers"), item, f("image")],
      [f("spec"), f("containers"), item],
      [f("metadata"), f("finalizers"), valueElement("b")],
      [f("metadata"), f("finalizers"), valueElement("a")],
      [f("spec"), f("args")],
      [f("spec"), f("list"), indexElement(1)],
    );
    const text = String.raw`{"f:metadata":{"f:finalizers":{"v:\"a\"":{},"v:\"b\"":{}}},"f:spec":{"f:args":{},"f:containers":{"k:{\"name\":\"nginx\"}":{".":{},"f:image":{}}},"f:list":{"i:1":{}}}}`;
    expect(encodeFieldsV1(set)).toBe(text);
    expect(JSON.stringify(fieldsV1Of(set))).toBe(text);
    expect(decodeFieldsV1(text).equals(set)).toBe(true);
    expect(decodeFieldsV1(JSON.parse(text)).equals(set)).toBe(true);
  });

  it("reads keys in any order, drops unknown kinds and reads a lone `.` or `{}` as a member", () => {
    const set = decodeFieldsV1({ "f:b": {}, "f:a": { ".": {} }, "x:future": { "f:c": {} }, ".": {} });
    expect(set.paths().map(pathText)).toEqual([".a", ".b"]);
    expect(encodeFieldsV1(set)).toBe('{"f:a":{},"f:b":{}}');
  });

  it("refuses malformed fields", () => {
    expect(() => decodeFieldsV1({ "f:a": "x" })).toThrow();
    expect(() => decodeFieldsV1({ q: {} })).toThrow("key must be 2 characters long:");
    expect(() => decodeFieldsV1({ 'k:{"a":': {} })).toThrow();
  });
});
