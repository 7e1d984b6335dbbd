import { describe, expect, it } from "vitest";
import { celEquals } from "../../../../runtime/cel/common/equality.js";
import {
  CelDuration,
  CelError,
  CelList,
  CelMap,
  CelObject,
  CelTimestamp,
  type CelValue,
} from "../../../../runtime/cel/common/values.js";
import { declTypeOf } from "../../../../runtime/cel/rules/schema-types.js";
import { celValueOf, PreservedValue } from "../../../../runtime/cel/rules/schema-values.js";
import type { StructuralSchema } from "../../../../runtime/cel/rules/structural-schema.js";

function celOf(json: unknown, schema: StructuralSchema): CelValue {
  const decl = declTypeOf(schema, false, "root");
  if (decl === undefined) throw new Error("no CEL type");
  return celValueOf(json, decl);
}

const messageOf = (v: CelValue): string | undefined => (v instanceof CelError ? v.message : undefined);

describe("JSON through a schema as CEL values", () => {
  it.each<[string, unknown, StructuralSchema, CelValue]>([
    ["integer as int", 3, { type: "integer" }, 3n],
    ["number as double", 3, { type: "number" }, 3],
    ["fractional number", 2.5, { type: "number" }, 2.5],
    ["string", "a", { type: "string" }, "a"],
    ["boolean", true, { type: "boolean" }, true],
    ["int-or-string int", 80, { "x-kubernetes-int-or-string": true }, 80n],
    ["int-or-string string", "80%", { "x-kubernetes-int-or-string": true }, "80%"],
    ["nullable null", null, { type: "string", nullable: true }, null],
  ])("%s", (_name, json, schema, expected) => {
    expect(celOf(json, schema)).toEqual(expected);
  });

  it.each<[string, unknown, StructuralSchema, string]>([
    ["null where not nullable", null, { type: "string" }, "invalid data, got null for schema with nullable=false"],
    ["fraction for an integer", 1.5, { type: "integer" }, "invalid data, expected int, got float64"],
    ["string for an integer", "1", { type: "integer" }, "invalid data, expected int, got string"],
    ["number for a string", 1, { type: "string" }, "invalid data, expected string, got int64"],
    [
      "bool for int-or-string",
      true,
      { "x-kubernetes-int-or-string": true },
      "invalid data, expected XIntOrString value to be either a string or integer",
    ],
    [
      "list for an object",
      [],
      { type: "object" },
      "invalid data, expected a map for the provided schema with type=object",
    ],
    [
      "object for a list",
      {},
      { type: "array", items: { type: "string" } },
      "invalid data, expected an array for the provided schema with type=array",
    ],
    ["bad base64", "%%%", { type: "string", format: "byte" }, "Invalid byte formatted string %%%: illegal base64 data"],
    [
      "bad duration",
      "soon",
      { type: "string", format: "duration" },
      "Invalid duration soon: unable to parse soon as duration",
    ],
  ])("%s reads as an error", (_name, json, schema, message) => {
    expect(messageOf(celOf(json, schema))).toBe(message);
  });

  it("decodes formats", () => {
    expect(celOf("aGk=", { type: "string", format: "byte" })).toEqual(new Uint8Array([104, 105]));
    expect(celOf("2024-02-29T12:30:15.25+01:00", { type: "string", format: "date-time" })).toEqual(
      new CelTimestamp(BigInt(Date.UTC(2024, 1, 29, 11, 30, 15) / 1000), 250_000_000),
    );
    expect(celOf("2024-03-01 00:00:00", { type: "string", format: "date-time" })).toEqual(
      new CelTimestamp(BigInt(Date.UTC(2024, 2, 1) / 1000), 0),
    );
    expect(celOf("0001-01-01", { type: "string", format: "date" })).toEqual(new CelTimestamp(-62135596800n, 0));
    expect(messageOf(celOf("2023-02-29", { type: "string", format: "date" }))).toMatch(
      /^Invalid date formatted string/,
    );
    expect(celOf("1h30m", { type: "string", format: "duration" })).toEqual(new CelDuration(5_400_000_000_000n));
    expect(celOf("-1.5s", { type: "string", format: "duration" })).toEqual(new CelDuration(-1_500_000_000n));
    expect(celOf("3 days", { type: "string", format: "duration" })).toEqual(new CelDuration(259_200_000_000_000n));
  });

  const schema: StructuralSchema = {
    type: "object",
    properties: {
      replicas: { type: "integer" },
      "max-replicas": { type: "integer" },
      name: { type: "string" },
      raw: { "x-kubernetes-preserve-unknown-fields": true },
      tags: { type: "array", items: { type: "string" }, "x-kubernetes-list-type": "set" },
      ports: {
        type: "array",
        items: { type: "object", properties: { "port-number": { type: "integer" }, protocol: { type: "string" } } },
        "x-kubernetes-list-type": "map",
        "x-kubernetes-list-map-keys": ["port-number", "protocol"],
      },
      labels: { type: "object", additionalProperties: { type: "string" } },
    },
  };

  it("reads object fields by their escaped names, lazily and without copying", () => {
    const json = { replicas: 2, "max-replicas": 5, name: null, extra: 1 };
    const obj = celOf(json, schema);
    expect(obj).toBeInstanceOf(CelObject);
    if (!(obj instanceof CelObject)) return;
    expect(obj.type.name).toBe("root");
    expect(obj.get("replicas")).toBe(2n);
    expect(obj.get("max__dash__replicas")).toBe(5n);
    expect(obj.get("name")).toBeUndefined(); // null reads as absent
    expect(obj.get("tags")).toBeUndefined();
    expect([...obj.fieldNames()]).toEqual(["replicas", "max__dash__replicas", "extra"]);
    json.replicas = 3;
    expect(obj.get("replicas")).toBe(3n);
  });

  it("gives undeclared and untyped fields as JSON that only compares", () => {
    const a = celOf({ raw: { x: [1, { y: 2 }] } }, schema);
    const b = celOf({ raw: { x: [1, { y: 2 }] } }, schema);
    const c = celOf({ raw: { x: [1, { y: 3 }] } }, schema);
    if (!(a instanceof CelObject)) throw new Error("not an object");
    expect(a.get("raw")).toBeInstanceOf(PreservedValue);
    expect(celEquals(a, b)).toBe(true);
    expect(celEquals(a, c)).toBe(false);
  });

  it("carries set and map list types, with escaped map keys", () => {
    const obj = celOf(
      { tags: ["a", "b"], ports: [{ "port-number": 80, protocol: "TCP" }], labels: { app: "x" } },
      schema,
    );
    if (!(obj instanceof CelObject)) throw new Error("not an object");
    const tags = obj.get("tags");
    const ports = obj.get("ports");
    const labels = obj.get("labels");
    expect(tags).toBeInstanceOf(CelList);
    expect(tags).toMatchObject({ listType: "set", size: 2, elemType: { kind: "string" } });
    expect(ports).toMatchObject({ listType: "map", mapKeys: ["port__dash__number", "protocol"] });
    expect(labels).toBeInstanceOf(CelMap);
    if (labels instanceof CelMap) expect([...labels.entries()]).toEqual([["app", "x"]]);
    const reordered = celOf({ tags: ["b", "a"] }, schema);
    if (reordered instanceof CelObject) expect(celEquals(tags ?? null, reordered.get("tags") ?? null)).toBe(true);
  });
});
