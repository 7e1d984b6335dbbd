// Value validation of custom resources: kube-openapi's messages as the apiextensions server reports them,
// embedded resources, and list-type uniqueness.
import { describe, expect, it } from "vitest";
import type { CustomResourceSchema } from "../../../../runtime/crd/schema/custom-resource-schema.js";
import { formatFieldError } from "../../../../runtime/errors/format-field-error.js";
import { specSchema as spec } from "./spec-schema.js";

const errors = (schema: CustomResourceSchema, specValue: unknown): string[] =>
  schema
    .validate({ apiVersion: "example.com/v1", kind: "Widget", metadata: { name: "w" }, spec: specValue })
    .map(formatFieldError);

describe("kube-openapi value validation", () => {
  it.each([
    [
      "type",
      { replicas: { type: "integer" } },
      { replicas: "3" },
      ['spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"'],
    ],
    ["required", { name: { type: "string" } }, {}, ["spec.name: Required value"], ["name"]],
    [
      "minimum",
      { replicas: { type: "integer", minimum: 0 } },
      { replicas: -1 },
      ["spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 0"],
    ],
    [
      "exclusive maximum",
      { ratio: { type: "number", maximum: 1, exclusiveMaximum: true } },
      { ratio: 1 },
      ["spec.ratio: Invalid value: 1: spec.ratio in body should be less than 1"],
    ],
    [
      "multipleOf",
      { step: { type: "integer", multipleOf: 5 } },
      { step: 7 },
      ["spec.step: Invalid value: 7: spec.step in body should be a multiple of 5"],
    ],
    [
      "enum",
      { mode: { type: "string", enum: ["Fast", "Slow"] } },
      { mode: "Medium" },
      ['spec.mode: Unsupported value: "Medium": supported values: "Fast", "Slow"'],
    ],
    [
      "maxLength, and only the first string error",
      { name: { type: "string", maxLength: 3, pattern: "^[a-z]+$" } },
      { name: "ABCDE" },
      ["spec.name: Too long: may not be more than 3 bytes"],
    ],
    [
      "minLength",
      { name: { type: "string", minLength: 2 } },
      { name: "a" },
      ['spec.name: Invalid value: "a": spec.name in body should be at least 2 chars long'],
    ],
    [
      "pattern",
      { name: { type: "string", pattern: "^[a-z]+$" } },
      { name: "A1" },
      ["spec.name: Invalid value: \"A1\": spec.name in body should match '^[a-z]+$'"],
    ],
    // Go's regexp syntax (RE2), which JavaScript's RegExp refuses: an inline case-insensitive flag.
    [
      "pattern in RE2 syntax, matching",
      { mode: { type: "string", pattern: "^(?i)(abort|warn)?$" } },
      { mode: "WARN" },
      [],
    ],
    [
      "pattern in RE2 syntax, not matching",
      { mode: { type: "string", pattern: "^(?i)(abort|warn)?$" } },
      { mode: "nope" },
      ["spec.mode: Invalid value: \"nope\": spec.mode in body should match '^(?i)(abort|warn)?$'"],
    ],
    [
      "format",
      { id: { type: "string", format: "uuid" } },
      { id: "nope" },
      ['spec.id: Invalid value: "nope": spec.id in body must be of type uuid: "nope"'],
    ],
    ["unsupported formats are ignored", { id: { type: "string", format: "frobnicated" } }, { id: "x" }, []],
    [
      "maxItems",
      { tags: { type: "array", maxItems: 2, items: { type: "string" } } },
      { tags: ["a", "b", "c"] },
      ["spec.tags: Too many: 3: must have at most 2 items"],
    ],
    [
      "minItems",
      { tags: { type: "array", minItems: 1, items: { type: "string" } } },
      { tags: [] },
      ["spec.tags: Invalid value: 0: spec.tags in body should have at least 1 items"],
    ],
    [
      "uniqueItems",
      { tags: { type: "array", uniqueItems: true, items: { type: "string" } } },
      { tags: ["a", "a"] },
      ['spec.tags: Invalid value: "": spec.tags in body shouldn\'t contain duplicates'],
    ],
    [
      "list items",
      {
        ports: { type: "array", items: { type: "object", properties: { port: { type: "integer", maximum: 65535 } } } },
      },
      { ports: [{ port: 80 }, { port: 70000 }] },
      ["spec.ports[1].port: Invalid value: 70000: spec.ports[1].port in body should be less than or equal to 65535"],
    ],
    [
      "map values are named with a dot",
      { limits: { type: "object", additionalProperties: { type: "integer" } } },
      { limits: { cpu: "2" } },
      ['spec.limits.cpu: Invalid value: "string": spec.limits.cpu in body must be of type integer: "string"'],
    ],
    [
      "maxProperties",
      { limits: { type: "object", maxProperties: 1, additionalProperties: { type: "integer" } } },
      { limits: { a: 1, b: 2 } },
      ["spec.limits: Too many: 2: must have at most 1 item"],
    ],
    [
      "int-or-string",
      { port: { "x-kubernetes-int-or-string": true } },
      { port: true },
      ['spec.port: Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean"'],
    ],
    ["int-or-string accepts both", { port: { "x-kubernetes-int-or-string": true } }, { port: "http" }, []],
    [
      "null where not nullable",
      { items: { type: "array", items: { type: "object" } } },
      { items: [null] },
      ['spec.items[0]: Invalid value: "null": spec.items[0] in body must be of type object: "null"'],
    ],
    ["null where nullable", { note: { type: "string", nullable: true } }, { note: null }, []],
    [
      "null never satisfies an enum",
      { mode: { type: "string", nullable: true, enum: ["a", null] } },
      { mode: null },
      ['spec.mode: Unsupported value: null: supported values: "a", "null"'],
    ],
  ])("%s", (_name, properties, value, expected, required?: string[]) => {
    const schema = spec(properties, required === undefined ? {} : { required });
    expect(errors(schema, value)).toEqual(expected);
  });

  it("anyOf keeps the best alternative's errors after its own", () => {
    const schema = spec({
      port: { "x-kubernetes-int-or-string": true, anyOf: [{ type: "integer" }, { type: "string" }] },
    });
    expect(errors(schema, { port: 1.5 })).toEqual([
      'spec.port: Invalid value: "number": spec.port in body must be of type integer,string: "number"',
      '<nil>: Invalid value: "": "spec.port" must validate at least one schema (anyOf)',
      'spec.port: Invalid value: "number": spec.port in body must be of type integer: "number"',
    ]);
  });

  it("oneOf, allOf and not", () => {
    const schema = spec({
      a: { type: "integer", oneOf: [{ minimum: 1 }, { minimum: 2 }] },
      b: { type: "integer", allOf: [{ minimum: 5 }] },
      c: { type: "string", not: { enum: ["no"] } },
    });
    expect(errors(schema, { a: 3, b: 1, c: "no" })).toEqual([
      '<nil>: Invalid value: "": "spec.a" must validate one and only one schema (oneOf). Found 2 valid alternatives',
      "spec.b: Invalid value: 1: spec.b in body should be greater than or equal to 5",
      '<nil>: Invalid value: "": "spec.b" must validate all the schemas (allOf). None validated',
      '<nil>: Invalid value: "": "spec.c" must not validate the schema (not)',
    ]);
  });
});

describe("embedded resources", () => {
  const schema = spec({
    template: {
      type: "object",
      "x-kubernetes-embedded-resource": true,
      "x-kubernetes-preserve-unknown-fields": true,
    },
  });

  it("requires apiVersion and kind", () => {
    expect(errors(schema, { template: { metadata: { name: "x" } } })).toEqual([
      "spec.template.apiVersion: Required value",
      "spec.template.kind: Required value",
    ]);
  });

  it("checks their form and the metadata", () => {
    expect(errors(schema, { template: { apiVersion: "a/b/c", kind: "No_Way", metadata: { name: "a/b" } } })).toEqual([
      'spec.template.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c',
      "spec.template.kind: Invalid value: \"No_Way\": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
      "spec.template.metadata.name: Invalid value: \"a/b\": may not contain '/'",
    ]);
  });

  it("accepts an object without a name", () => {
    expect(errors(schema, { template: { apiVersion: "v1", kind: "Pod", metadata: { labels: { a: "b" } } } })).toEqual(
      [],
    );
  });
});

describe("list types", () => {
  it("reports the second appearance of a set item and of a list map key", () => {
    const schema = spec({
      set: { type: "array", "x-kubernetes-list-type": "set", items: { type: "string" } },
      ports: {
        type: "array",
        "x-kubernetes-list-type": "map",
        "x-kubernetes-list-map-keys": ["name"],
        items: { type: "object", properties: { name: { type: "string" } } },
      },
      pairs: {
        type: "array",
        "x-kubernetes-list-type": "map",
        "x-kubernetes-list-map-keys": ["a", "b"],
        items: { type: "object", properties: { a: { type: "integer" }, b: { type: "integer" } } },
      },
    });
    const value = {
      set: ["x", "y", "x", "x"],
      ports: [{ name: "a" }, { name: "a" }],
      pairs: [{ a: 1, b: 1 }, { a: 1 }, { b: 1, a: 1 }],
    };
    expect(errors(schema, value)).toEqual([
      'spec.set[2]: Duplicate value: "x"',
      'spec.ports[1]: Duplicate value: {"name":"a"}',
      'spec.pairs[2]: Duplicate value: {"a":1,"b":1}',
    ]);
  });

  it("refuses a map list item that is not an object", () => {
    const schema = spec({
      ports: {
        type: "array",
        "x-kubernetes-list-type": "map",
        "x-kubernetes-list-map-keys": ["name"],
        items: { "x-kubernetes-preserve-unknown-fields": true },
      },
    });
    expect(errors(schema, { ports: ["a"] })).toEqual([
      'spec.ports[0]: Invalid value: "a": must be an object for an array of list-type map',
    ]);
  });
});
