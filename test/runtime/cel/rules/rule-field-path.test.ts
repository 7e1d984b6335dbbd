import { describe, expect, it } from "vitest";
import { validFieldPath } from "../../../../runtime/cel/rules/rule-field-path.js";
import type { StructuralSchema } from "../../../../runtime/cel/rules/structural-schema.js";

const schema: StructuralSchema = {
  type: "object",
  properties: {
    spec: {
      type: "object",
      properties: {
        replicas: { type: "integer" },
        "a.b": { type: "string" },
        labels: { type: "object", additionalProperties: { type: "object", properties: { v: { type: "string" } } } },
        items: { type: "array", items: { type: "string" } },
      },
    },
  },
};

describe("a rule's fieldPath", () => {
  it.each([
    [".spec", "spec"],
    [".spec.replicas", "spec.replicas"],
    [".spec['a.b']", "spec.a.b"],
    ["['spec']['replicas']", "spec.replicas"],
    [".spec.labels.app", "spec.labels[app]"],
    [".spec.labels['app.kubernetes.io/name'].v", "spec.labels[app.kubernetes.io/name].v"],
    [".spec.labels['it\\'s']", "spec.labels[it's]"],
    [".spec.items", "spec.items"],
  ])("%s is %s", (jsonPath, path) => {
    expect(validFieldPath(jsonPath, schema)).toEqual({ path });
  });

  it.each([
    ["spec", "expected [ or . but got: spec"],
    [".spec.missing", "does not refer to a valid field"],
    [".spec.replicas.x", "does not refer to a valid field"],
    [".spec.items[0]", "expected single quoted string but got 0"],
    [".spec.items['0']", "does not refer to a valid field"],
    [".spec[spec]", "expected single quoted string but got spec"],
    [".spec['replicas'", "unexpected end of JSON path"],
    [".spec['replicas'.", "expected ] but got ."],
    [".spec['\\q']", "invalid string literal: invalid escape char \\q"],
    [".", "unexpected end of JSON path"],
  ])("%s: %s", (jsonPath, error) => {
    expect(validFieldPath(jsonPath, schema)).toEqual({ error });
  });
});
