// Path elements: their order (fields, keys, values, indices; values across JSON types), their FieldsV1
// keys, and the text conflict messages print for them.
import { describe, expect, it } from "vitest";
import {
  comparePathElements,
  fieldElement,
  indexElement,
  keyElement,
  type PathElement,
  parsePathElement,
  serializePathElement,
  valueElement,
} from "../../../../runtime/apply/fieldpath/path-element.js";
import { pathText } from "../../../../runtime/apply/fieldpath/path-string.js";
import { compareValues, valuesEqual, valueText } from "../../../../runtime/apply/typed/json-value.js";

describe("path elements", () => {
  it("order fields before keys before values before indices", () => {
    const sorted: PathElement[] = [
      fieldElement("a"),
      fieldElement("b"),
      keyElement([{ name: "name", value: "a" }]),
      keyElement([{ name: "name", value: "b" }]),
      valueElement(1),
      valueElement("a"),
      valueElement(true),
      indexElement(0),
      indexElement(2),
    ];
    const shuffled = [...sorted].reverse();
    expect(shuffled.sort(comparePathElements)).toEqual(sorted);
  });

  it("order values numbers, strings, booleans, lists, maps, null; numbers by value", () => {
    const values = [1, 2.5, 10, "", "a", false, true, [], [1], {}, { a: 1 }, null];
    expect([...values].reverse().sort(compareValues)).toEqual(values);
    expect(valuesEqual(1, 1.0)).toBe(true);
    expect(valuesEqual({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).toBe(true);
    expect(valuesEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
  });

  it("sort key fields by name and compare keys field by field", () => {
    const key = keyElement([
      { name: "protocol", value: "TCP" },
      { name: "containerPort", value: 80 },
    ]);
    expect(serializePathElement(key)).toBe('k:{"containerPort":80,"protocol":"TCP"}');
    const shorter = keyElement([{ name: "containerPort", value: 80 }]);
    expect(comparePathElements(shorter, key)).toBe(-1);
  });

  it("serialize and parse FieldsV1 keys", () => {
    const cases: [PathElement, string][] = [
      [fieldElement("spec"), "f:spec"],
      [fieldElement("kubernetes.io/name"), "f:kubernetes.io/name"],
      [keyElement([{ name: "name", value: "<x>" }]), 'k:{"name":"\\u003cx\\u003e"}'],
      [valueElement("finalizer.example.com"), 'v:"finalizer.example.com"'],
      [valueElement(3), "v:3"],
      [indexElement(4), "i:4"],
    ];
    for (const [pe, text] of cases) {
      expect(serializePathElement(pe)).toBe(text);
      expect(comparePathElements(parsePathElement(text) as PathElement, pe)).toBe(0);
    }
    expect(parsePathElement('k:{"b":1,"a":2}')).toEqual(
      keyElement([
        { name: "a", value: 2 },
        { name: "b", value: 1 },
      ]),
    );
    expect(parsePathElement("x:unknown")).toBeUndefined();
    expect(() => parsePathElement("f")).toThrow("key must be 2 characters long:");
    expect(() => parsePathElement("fspec")).toThrow("missing colon: fspec");
    expect(() => parsePathElement("i:one")).toThrow();
  });

  it("print paths as conflict messages do", () => {
    expect(
      pathText([
        fieldElement("spec"),
        fieldElement("containers"),
        keyElement([{ name: "name", value: "nginx" }]),
        fieldElement("ports"),
        keyElement([
          { name: "containerPort", value: 80 },
          { name: "protocol", value: "TCP" },
        ]),
        fieldElement("hostPort"),
      ]),
    ).toBe('.spec.containers[name="nginx"].ports[containerPort=80,protocol="TCP"].hostPort');
    expect(pathText([fieldElement("finalizers"), valueElement("a")])).toBe('.finalizers[="a"]');
    expect(pathText([fieldElement("args"), indexElement(0)])).toBe(".args[0]");
    expect(valueText({ b: [1, "x"], a: null })).toBe('a=nullb=[1,"x"]');
  });
});
