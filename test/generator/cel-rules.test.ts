import { describe, expect, it } from "vitest";
import { StructuralSchemas } from "../../generator/emit/kind-structural-schema.js";
import { validatorsEmitter } from "../../generator/emit/validators.js";
import type { SchemaFile } from "../../generator/schema/model.js";
import { schemaSetOf } from "../../generator/schema/schema-set.js";
import { celRuleProblems } from "../../generator/validate/cel-rules.js";

function gadgets(rules: { rule: string; message?: string }[]): SchemaFile {
  return {
    group: "example.com",
    version: "v1",
    openapi: { prefix: "com.example.v1" },
    kinds: [{ kind: "Gadget" }, { kind: "Plain" }],
    definitions: {
      Gadget: {
        type: "object",
        properties: { spec: { $ref: "#/definitions/GadgetSpec", default: {} } },
      },
      GadgetSpec: {
        type: "object",
        required: ["size"],
        properties: {
          size: { type: "integer", format: "int32", minimum: 0, description: "dropped" },
          target: { $ref: "#/definitions/IntOrString" },
          when: { type: "string", format: "date-time" },
          parts: {
            type: "array",
            maxItems: 4,
            items: { $ref: "#/definitions/Part" },
            "x-kubernetes-list-type": "map",
            "x-kubernetes-list-map-keys": ["name"],
          },
        },
        "x-kubernetes-validations": rules,
      },
      Part: { type: "object", properties: { name: { type: "string" }, next: { $ref: "#/definitions/Part" } } },
      IntOrString: { format: "int-or-string", oneOf: [{ type: "integer" }, { type: "string" }] },
      Plain: { type: "object", properties: { name: { type: "string" } } },
    },
  };
}

describe("CEL rules in the generator", () => {
  it("converts a kind to the structural schema its rules compile against", () => {
    const set = schemaSetOf({ "example.com/v1": gadgets([{ rule: "self.size < 10" }]) });
    const schemas = new StructuralSchemas(set);
    const schema = schemas.definition("example.com/v1", "Gadget");
    expect(schema).toEqual({
      type: "object",
      properties: {
        spec: {
          type: "object",
          default: {},
          required: ["size"],
          properties: {
            size: { type: "integer", format: "int32" },
            target: { "x-kubernetes-int-or-string": true, format: "int-or-string" },
            when: { type: "string", format: "date-time" },
            parts: {
              type: "array",
              maxItems: 4,
              "x-kubernetes-list-type": "map",
              "x-kubernetes-list-map-keys": ["name"],
              items: {
                type: "object",
                properties: {
                  name: { type: "string" },
                  // A definition reached through itself is left opaque.
                  next: { "x-kubernetes-preserve-unknown-fields": true },
                },
              },
            },
          },
          "x-kubernetes-validations": [{ rule: "self.size < 10" }],
        },
      },
    });
    const spec = schema.properties?.spec;
    expect(spec && schemas.origins.get(spec)).toEqual([
      { file: "schemas/example.com/v1.yaml", location: "definitions.GadgetSpec.x-kubernetes-validations[0]" },
    ]);
  });

  it("puts the schema in the validation entry of kinds with rules only", () => {
    const set = schemaSetOf({ "example.com/v1": gadgets([{ rule: "self.size < 10", message: "small" }]) });
    const table = validatorsEmitter.emit(set).files.find((f) => f.path === "validation.ts")?.content ?? "";
    expect(table).toContain('import type { StructuralSchema } from "../runtime/cel/rules/structural-schema.js";');
    expect(table).toContain("  celSchema?: StructuralSchema;");
    expect(table).toContain(`  "example.com/v1/Gadget": {
    validate: (obj) => run(exampleComV1.validateGadget, obj),
    default: exampleComV1Defaulters.defaultGadget,
    celSchema: {
      type: "object",
      properties: {
        spec: {`);
    expect(table).toContain('"x-kubernetes-validations": [{ rule: "self.size < 10", message: "small" }],');
    expect(table).toContain(`  "example.com/v1/Plain": {
    validate: (obj) => run(exampleComV1.validatePlain, obj),
    default: exampleComV1Defaulters.defaultPlain,
  },`);
  });

  it("refuses rules kube-apiserver would refuse, naming where they are written", () => {
    const set = schemaSetOf({
      "example.com/v1": gadgets([{ rule: "self.size < 10" }, { rule: "self.colour == 'red'" }, { rule: "self.size" }]),
    });
    const problems = celRuleProblems(set);
    expect(problems).toEqual([
      "schemas/example.com/v1.yaml: definitions.GadgetSpec.x-kubernetes-validations[1].rule: compilation failed: ERROR: <input>:1:5: undefined field 'colour'\n | self.colour == 'red'\n | ....^",
      "schemas/example.com/v1.yaml: definitions.GadgetSpec.x-kubernetes-validations[2].rule: cel expression must evaluate to a bool",
    ]);
    expect(() => validatorsEmitter.emit(set)).toThrow(/undefined field 'colour'/);
  });
});
