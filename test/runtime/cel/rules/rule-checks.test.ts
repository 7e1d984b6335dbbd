import { describe, expect, it } from "vitest";
import { compileRules } from "../../../../runtime/cel/rules/rule-checks.js";
import type { StructuralSchema, ValidationRule } from "../../../../runtime/cel/rules/structural-schema.js";
import { formatFieldError } from "../../../../runtime/errors/format-field-error.js";

const specOf = (rules: ValidationRule[], properties: Record<string, StructuralSchema> = {}): StructuralSchema => ({
  type: "object",
  properties: {
    spec: {
      type: "object",
      properties: { replicas: { type: "integer" }, name: { type: "string", maxLength: 10 }, ...properties },
      "x-kubernetes-validations": rules,
    },
  },
});

const problems = (schema: StructuralSchema): string[] =>
  compileRules(schema, { path: "spec.validation.openAPIV3Schema", typeName: "selfType" }).map((p) =>
    formatFieldError(p.error),
  );

const at = "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0]";

describe("write-time checks of x-kubernetes-validations", () => {
  it("accepts rules that compile within the cost limits", () => {
    expect(problems(specOf([{ rule: "self.replicas >= 0", messageExpression: "'bad: ' + self.name" }]))).toEqual([]);
  });

  it("reports rules that do not compile or are not bools", () => {
    expect(problems(specOf([{ rule: "self.nope == 1" }]))).toEqual([
      `${at}.rule: Invalid value: {"rule":"self.nope == 1"}: compilation failed: ERROR: <input>:1:5: undefined field 'nope'\n | self.nope == 1\n | ....^`,
    ]);
    expect(problems(specOf([{ rule: "self.replicas" }]))).toEqual([
      `${at}.rule: Invalid value: {"rule":"self.replicas"}: cel expression must evaluate to a bool`,
    ]);
  });

  it("reports messageExpressions that are not strings", () => {
    expect(problems(specOf([{ rule: "true", messageExpression: "self.replicas" }]))).toEqual([
      `${at}.messageExpression: Invalid value: {"messageExpression":"self.replicas","rule":"true"}: messageExpression must evaluate to a string`,
    ]);
  });

  it.each<[ValidationRule, string]>([
    [{ rule: "  " }, `${at}.rule: Required value: rule is not specified`],
    [{ rule: "true", message: " " }, `${at}.message: Invalid value: " ": message must be non-empty if specified`],
    [{ rule: "true", message: "a\nb" }, `${at}.message: Invalid value: "a\\nb": message must not contain line breaks`],
    [
      { rule: "true &&\ntrue" },
      `${at}.message: Required value: message must be specified if rule contains line breaks`,
    ],
    [
      { rule: "true", messageExpression: " " },
      `${at}.messageExpression: Required value: messageExpression must be non-empty if specified`,
    ],
    [
      { rule: "true", reason: "Nope" } as unknown as ValidationRule,
      `${at}.reason: Unsupported value: "Nope": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"`,
    ],
    [
      { rule: "true", fieldPath: ".missing" },
      `${at}.fieldPath: Invalid value: ".missing": fieldPath must be a valid path`,
    ],
    [
      { rule: "true", optionalOldSelf: true },
      `${at}.optionalOldSelf: Invalid value: true: may not be set if oldSelf is not used in rule`,
    ],
  ])("%j", (rule, text) => {
    expect(problems(specOf([rule]))).toEqual([text]);
  });

  it("refuses transition rules where old values cannot be correlated", () => {
    const items: StructuralSchema = {
      type: "array",
      maxItems: 10,
      items: { type: "string", maxLength: 10, "x-kubernetes-validations": [{ rule: "self == oldSelf" }] },
    };
    expect(problems(specOf([], { items }))).toEqual([
      'spec.validation.openAPIV3Schema.properties[spec].properties[items].items.x-kubernetes-validations[0].rule: Invalid value: "self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within spec.validation.openAPIV3Schema.properties[spec].properties[items]',
    ]);
    const mapList: StructuralSchema = {
      ...items,
      "x-kubernetes-list-type": "map",
      "x-kubernetes-list-map-keys": ["k"],
      items: {
        type: "object",
        properties: { k: { type: "string" } },
        "x-kubernetes-validations": [{ rule: "self == oldSelf" }],
      },
    };
    expect(problems(specOf([], { mapList }))).toEqual([]);
  });

  it("refuses rules estimated too expensive, and the whole schema when their total is", () => {
    const tags: StructuralSchema = { type: "array", items: { type: "string" } };
    const found = problems(specOf([{ rule: "self.tags.all(x, self.tags.all(y, x == y))" }], { tags }));
    expect(found[0]).toBe(
      `${at}.rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`,
    );
    expect(found.at(-1)).toBe(
      "spec.validation.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)",
    );
    const bounded: StructuralSchema = { type: "array", maxItems: 10, items: { type: "string", maxLength: 10 } };
    expect(problems(specOf([{ rule: "self.tags.all(x, self.tags.all(y, x == y))" }], { tags: bounded }))).toEqual([]);
  });
});
