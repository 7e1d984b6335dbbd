import { describe, expect, it } from "vitest";
import { formatType, type ObjectType } from "../../../../runtime/cel/common/cel-types.js";
import {
  declTypeOf,
  maxCardinality,
  maxRequestSizeBytes,
  sizeAtPath,
} from "../../../../runtime/cel/rules/schema-types.js";
import type { StructuralSchema } from "../../../../runtime/cel/rules/structural-schema.js";

const unbounded = maxRequestSizeBytes - 2;

describe("schema → CEL type", () => {
  it.each<[string, StructuralSchema, string, number]>([
    ["boolean", { type: "boolean" }, "bool", 0],
    ["integer", { type: "integer", format: "int32" }, "int", 0],
    ["number", { type: "number" }, "double", 0],
    ["string", { type: "string" }, "string", unbounded],
    ["string with maxLength (code points of up to 4 bytes)", { type: "string", maxLength: 10 }, "string", 40],
    ["string enum (its longest value)", { type: "string", enum: ["a", "bbb"] }, "string", 3],
    ["byte", { type: "string", format: "byte", maxLength: 10 }, "bytes", 10],
    ["date", { type: "string", format: "date" }, "google.protobuf.Timestamp", 12],
    ["date-time", { type: "string", format: "date-time" }, "google.protobuf.Timestamp", 32],
    ["duration", { type: "string", format: "duration" }, "google.protobuf.Duration", 32],
    ["int-or-string", { "x-kubernetes-int-or-string": true }, "dyn", unbounded],
    ["int-or-string with maxLength", { "x-kubernetes-int-or-string": true, maxLength: 5 }, "dyn", 20],
    ["list", { type: "array", items: { type: "string" }, maxItems: 4 }, "list(string)", 4],
    ["unbounded list of ints", { type: "array", items: { type: "integer" } }, "list(int)", Math.floor(unbounded / 2)],
    [
      "set list",
      { type: "array", items: { type: "string" }, "x-kubernetes-list-type": "set" },
      "list(string)",
      Math.floor(unbounded / 3),
    ],
    ["map", { type: "object", additionalProperties: { type: "integer" }, maxProperties: 3 }, "map(string, int)", 3],
    [
      "unbounded map",
      { type: "object", additionalProperties: { type: "boolean" } },
      "map(string, bool)",
      Math.floor(unbounded / 10),
    ],
    ["object", { type: "object", properties: { a: { type: "string" } } }, "root", 0],
    ["object without properties", { type: "object" }, "root", 0],
    ["additionalProperties: true is an object", { type: "object", additionalProperties: true }, "root", 0],
    ["negative maxItems is zero", { type: "array", items: { type: "string" }, maxItems: -1 }, "list(string)", 0],
  ])("%s", (_name, schema, type, maxElements) => {
    const decl = declTypeOf(schema, false, "root");
    expect(decl && formatType(decl.celType)).toBe(type);
    expect(decl?.maxElements).toBe(maxElements);
  });

  it.each<[string, StructuralSchema]>([
    ["no type", {}],
    ["preserve-unknown-fields without a type", { "x-kubernetes-preserve-unknown-fields": true }],
    ["list of untyped items", { type: "array", items: {} }],
    ["list without items", { type: "array" }],
    [
      "map of untyped values",
      { type: "object", additionalProperties: { "x-kubernetes-preserve-unknown-fields": true } },
    ],
  ])("%s has no CEL type", (_name, schema) => {
    expect(declTypeOf(schema, false)).toBeUndefined();
  });

  const widget: StructuralSchema = {
    type: "object",
    required: ["spec"],
    properties: {
      spec: {
        type: "object",
        required: ["replicas"],
        properties: {
          replicas: { type: "integer" },
          "max-replicas": { type: "integer" },
          namespace: { type: "string" },
          "1st": { type: "string" },
          raw: { "x-kubernetes-preserve-unknown-fields": true },
          ports: {
            type: "array",
            maxItems: 8,
            items: { type: "object", properties: { name: { type: "string", maxLength: 15 } } },
          },
          labels: { type: "object", additionalProperties: { type: "object", properties: { v: { type: "string" } } } },
        },
      },
    },
  };

  it("names object types after their place below the root, with escaped field names", () => {
    const root = declTypeOf(widget, false, "selfType1");
    const spec = root?.fields?.get("spec")?.type;
    expect(root?.celType).toMatchObject({ kind: "object", name: "selfType1" });
    expect(spec?.celType).toMatchObject({ kind: "object", name: "selfType1.spec" });
    expect(formatType(spec?.fields?.get("ports")?.type.celType ?? { kind: "dyn" })).toBe(
      "list(selfType1.spec.ports.@idx)",
    );
    expect(formatType(spec?.fields?.get("labels")?.type.celType ?? { kind: "dyn" })).toBe(
      "map(string, selfType1.spec.labels.@elem)",
    );
  });

  it("declares escapable property names only, and not untyped properties", () => {
    const spec = declTypeOf(widget, false)?.fields?.get("spec")?.type;
    expect([...(spec?.fields?.keys() ?? [])]).toEqual([
      "replicas",
      "max__dash__replicas",
      "__namespace__",
      "ports",
      "labels",
    ]);
    expect(spec?.fields?.get("max__dash__replicas")).toMatchObject({ property: "max-replicas", required: false });
    expect(spec?.fields?.get("replicas")?.required).toBe(true);
    const objectType = spec?.celType as ObjectType;
    expect([...objectType.fields.keys()]).toEqual([...(spec?.fields?.keys() ?? [])]);
  });

  it("adds apiVersion, kind and metadata.name/generateName at a resource root", () => {
    const root = declTypeOf({ type: "object", properties: { spec: { type: "object" } } }, true, "r");
    expect([...(root?.fields?.keys() ?? [])]).toEqual(["spec", "kind", "apiVersion", "metadata"]);
    expect([...(root?.fields?.get("metadata")?.type.fields?.keys() ?? [])]).toEqual(["name", "generateName"]);
    const embedded = declTypeOf(
      { type: "object", properties: { template: { type: "object", "x-kubernetes-embedded-resource": true } } },
      false,
    );
    expect([...(embedded?.fields?.get("template")?.type.fields?.keys() ?? [])]).toEqual([
      "kind",
      "apiVersion",
      "metadata",
    ]);
  });

  it("counts required properties without defaults in the smallest serialized size", () => {
    // {} plus "replicas": 0 with quotes, colon and comma.
    expect(declTypeOf(widget, false)?.fields?.get("spec")?.type.minSerializedSize).toBe(2 + 8 + 1 + 4);
    const defaulted: StructuralSchema = {
      type: "object",
      required: ["a"],
      properties: { a: { type: "string", default: "x" } },
    };
    expect(declTypeOf(defaulted, false)?.minSerializedSize).toBe(2);
    expect(maxCardinality(2)).toBe(Math.floor(maxRequestSizeBytes / 3));
  });

  it("answers the cost estimator's size questions by path", () => {
    const root = declTypeOf(widget, false);
    if (root === undefined) throw new Error("no type");
    expect(sizeAtPath(root, ["self", "spec", "ports"])).toEqual({ min: 0, max: 8 });
    expect(sizeAtPath(root, ["self", "spec", "ports", "@items", "name"])).toEqual({ min: 0, max: 60 });
    expect(sizeAtPath(root, ["self", "spec", "labels", "@values", "v"])).toEqual({ min: 0, max: unbounded });
    expect(sizeAtPath(root, ["self", "spec", "labels", "@keys"])).toEqual({ min: 0, max: 0 });
    expect(sizeAtPath(root, ["self", "spec", "missing"])).toBeUndefined();
    expect(sizeAtPath(root, [])).toBeUndefined();
  });
});
