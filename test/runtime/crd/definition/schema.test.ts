import { describe, expect, it } from "vitest";
import { createErrors, definition, schemaOf, versionsOf } from "./fixtures.js";

const root = "spec.validation.openAPIV3Schema";

describe("CustomResourceDefinition schemas", () => {
  it("requires a structural schema, naming each offending node", () => {
    const crd = definition({
      properties: {
        spec: { properties: { list: { type: "array" } } },
        metadata: { type: "object", properties: { labels: { type: "object" } } },
      },
    });
    expect(createErrors(crd)).toEqual([
      `${root}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`,
      `${root}.properties[spec].properties[list].items: Required value: must be specified`,
      `${root}.properties[spec].type: Required value: must not be empty for specified object fields`,
      `${root}.type: Required value: must not be empty at the root`,
    ]);
  });

  it("forbids declarations inside value validation and needs them outside", () => {
    const crd = definition({
      type: "object",
      anyOf: [{ type: "object", properties: { extra: { description: "d" } } }],
    });
    expect(createErrors(crd)).toEqual([
      `${root}.anyOf[0].properties[extra].description: Forbidden: must be empty to be structural`,
      `${root}.anyOf[0].type: Forbidden: must be empty to be structural`,
      `${root}.properties[extra]: Required value: because it is defined in ${root}.anyOf[0].properties[extra]`,
    ]);
  });

  it("allows int-or-string and preserve-unknown-fields without a type", () => {
    const crd = definition(
      schemaOf({
        port: { "x-kubernetes-int-or-string": true, anyOf: [{ type: "integer" }, { type: "string" }] },
        raw: { "x-kubernetes-preserve-unknown-fields": true },
        embedded: {
          type: "object",
          "x-kubernetes-embedded-resource": true,
          "x-kubernetes-preserve-unknown-fields": true,
        },
      }),
    );
    expect(createErrors(crd)).toEqual([]);
  });

  it("forbids unsupported keywords", () => {
    const crd = definition({
      type: "object",
      properties: {
        spec: {
          type: "object",
          $ref: "#/definitions/x",
          uniqueItems: true,
          properties: { a: { type: "string" } },
          additionalProperties: { type: "string" },
          "x-kubernetes-preserve-unknown-fields": false,
        },
        kind: { type: "string", default: "Widget" },
      },
    });
    expect(createErrors(crd)).toEqual([
      `${root}.properties[spec].$ref: Forbidden: $ref is not supported`,
      `${root}.properties[spec].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic`,
      `${root}.properties[spec].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive`,
      `${root}.properties[spec].x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined`,
      `${root}.properties[kind].default: Forbidden: must not be set in top-level kind`,
    ]);
  });

  it("checks list types and map keys", () => {
    const crd = definition(
      schemaOf({
        ports: {
          type: "array",
          "x-kubernetes-list-type": "map",
          "x-kubernetes-list-map-keys": ["name", "missing"],
          items: { type: "object", properties: { name: { type: "string" } } },
        },
        tags: { type: "object", "x-kubernetes-list-type": "set" },
      }),
    );
    expect(createErrors(crd)).toEqual([
      `${root}.properties[spec].properties[ports].x-kubernetes-list-map-keys: Invalid value: ["name","missing"]: entries must all be names of item properties`,
      `${root}.properties[spec].properties[ports].items.properties[name].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property`,
      `${root}.properties[spec].properties[tags].type: Invalid value: "object": must be array if x-kubernetes-list-type is specified`,
    ]);
  });

  it("requires defaults to validate and to be pruned", () => {
    const crd = definition(
      schemaOf({
        size: { type: "integer", default: "big" },
        shape: { type: "object", properties: { a: { type: "string" } }, default: { a: "x", b: "y" } },
      }),
    );
    expect(createErrors(crd)).toEqual([
      `${root}.properties[spec].properties[size].default: Invalid value: "string": ${root}.properties[spec].properties[size].default in body must be of type integer: "string"`,
      `${root}.properties[spec].properties[shape].default: Invalid value: {"a":"x","b":"y"}: must not have unknown fields`,
    ]);
  });

  it("requires the root to be an object with the status subresource", () => {
    const crd = definition({ type: "object", nullable: true, properties: {} });
    Object.assign(versionsOf(crd)[0] as object, { subresources: { status: {} } });
    expect(createErrors(crd)).toEqual([
      expect.stringMatching(
        /^spec\.validation\.openAPIV3Schema: Invalid value: .*: only \[Description Type Format .* XValidations\] fields are allowed at the root of the schema if the status subresource is enabled$/,
      ),
      `${root}.nullable: Forbidden: nullable cannot be true at the root`,
    ]);
  });
});

describe("CustomResourceDefinition validation rules", () => {
  it("compiles every rule and messageExpression against the schema", () => {
    const crd = definition(
      schemaOf({
        size: {
          type: "integer",
          "x-kubernetes-validations": [
            { rule: "self > 0", messageExpression: "'size must be positive'" },
            { rule: "self.nope", message: "m" },
            { rule: "self > 1", messageExpression: "self" },
          ],
        },
      }),
    );
    const at = `${root}.properties[spec].properties[size].x-kubernetes-validations`;
    expect(createErrors(crd)).toEqual([
      expect.stringMatching(
        new RegExp(`^${escapeRegex(at)}\\[1\\]\\.rule: Invalid value: .*: compilation failed: ERROR: <input>:1:5: `),
      ),
      expect.stringMatching(
        new RegExp(
          `^${escapeRegex(at)}\\[2\\]\\.messageExpression: Invalid value: .*: messageExpression must evaluate to a string$`,
        ),
      ),
    ]);
  });

  it("reports rules over the cost limit and oldSelf on uncorrelatable lists", () => {
    const crd = definition(
      schemaOf({
        items: {
          type: "array",
          items: {
            type: "string",
            "x-kubernetes-validations": [{ rule: "self == oldSelf" }],
          },
        },
        names: {
          type: "array",
          items: { type: "string" },
          "x-kubernetes-validations": [{ rule: "self.all(a, self.all(b, self.all(c, a + b + c != '')))" }],
        },
      }),
    );
    const errors = createErrors(crd);
    expect(errors).toContain(
      `${root}.properties[spec].properties[items].items.x-kubernetes-validations[0].rule: Invalid value: "self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within ${root}.properties[spec].properties[items]`,
    );
    expect(
      errors.some((e) =>
        e.startsWith(
          `${root}.properties[spec].properties[names].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of`,
        ),
      ),
    ).toBe(true);
  });

  it("checks reason and fieldPath", () => {
    const crd = definition(
      schemaOf({
        size: { type: "integer" },
      }),
    );
    const spec = ((crd.spec as Record<string, unknown>).versions as Record<string, unknown>[])[0] as Record<
      string,
      unknown
    >;
    const schema = (spec.schema as Record<string, Record<string, Record<string, Record<string, unknown>>>>)
      .openAPIV3Schema;
    (schema?.properties?.spec as Record<string, unknown>)["x-kubernetes-validations"] = [
      { rule: "self.size > 0", reason: "Bad", fieldPath: ".nope" },
    ];
    const at = `${root}.properties[spec].x-kubernetes-validations[0]`;
    expect(createErrors(crd)).toEqual([
      `${at}.reason: Unsupported value: "Bad": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"`,
      `${at}.fieldPath: Invalid value: ".nope": fieldPath must be a valid path`,
    ]);
  });
});

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
