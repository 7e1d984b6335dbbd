import { describe, expect, it } from "vitest";
import { ruleValidatorFor } from "../../../../runtime/cel/rules/rule-validator.js";
import { validateSchemaRules } from "../../../../runtime/cel/rules/schema-rules.js";
import type { StructuralSchema, ValidationRule } from "../../../../runtime/cel/rules/structural-schema.js";
import { required } from "../../../../runtime/errors/field-error.js";
import { formatFieldError } from "../../../../runtime/errors/format-field-error.js";

/** A Widget kind whose spec carries the rules under test. */
function widget(specRules: ValidationRule[], extra: Record<string, StructuralSchema> = {}): StructuralSchema {
  return {
    type: "object",
    properties: {
      apiVersion: { type: "string" },
      kind: { type: "string" },
      metadata: { type: "object", properties: { name: { type: "string" }, generateName: { type: "string" } } },
      spec: {
        type: "object",
        properties: {
          replicas: { type: "integer" },
          minReplicas: { type: "integer" },
          maxReplicas: { type: "integer" },
          "max-surge": { type: "integer" },
          name: { type: "string", maxLength: 20 },
          target: { "x-kubernetes-int-or-string": true },
          ...extra,
        },
        "x-kubernetes-validations": specRules,
      },
    },
  };
}

function run(schema: StructuralSchema, spec: unknown, oldSpec?: unknown, budget?: number): string[] {
  const validator = ruleValidatorFor(schema, true, { typeName: "selfType" });
  if (validator === undefined) throw new Error("no rules");
  const obj = { apiVersion: "example.com/v1", kind: "Widget", metadata: { name: "w" }, spec };
  const old = oldSpec === undefined ? undefined : { ...obj, spec: oldSpec };
  return validator.validate(obj, old, budget === undefined ? {} : { budget }).errors.map(formatFieldError);
}

const range = "self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas";

describe("x-kubernetes-validations on a write", () => {
  it("passes an object that satisfies its rules", () => {
    expect(run(widget([{ rule: range }]), { replicas: 2, minReplicas: 1, maxReplicas: 3 })).toEqual([]);
  });

  it("reports a failed rule at its node: the message, or the rule itself; object values are not shown", () => {
    const spec = { replicas: 5, minReplicas: 1, maxReplicas: 3 };
    expect(run(widget([{ rule: range, message: " replicas out of range " }]), spec)).toEqual([
      "spec: Invalid value: replicas out of range",
    ]);
    expect(run(widget([{ rule: range }]), spec)).toEqual([`spec: Invalid value: failed rule: ${range}`]);
  });

  it("shows scalar values", () => {
    const schema = widget([], {
      name: {
        type: "string",
        "x-kubernetes-validations": [{ rule: "self.matches('^[a-z]+$')", message: "lower case only" }],
      },
    });
    expect(run(schema, { name: "Bad" })).toEqual(['spec.name: Invalid value: "Bad": lower case only']);
    const count = widget([], { replicas: { type: "integer", "x-kubernetes-validations": [{ rule: "self >= 0" }] } });
    expect(run(count, { replicas: -2 })).toEqual(["spec.replicas: Invalid value: -2: failed rule: self >= 0"]);
  });

  it("reads escaped property names", () => {
    expect(run(widget([{ rule: "self.max__dash__surge < 3" }]), { "max-surge": 4 })).toEqual([
      "spec: Invalid value: failed rule: self.max__dash__surge < 3",
    ]);
  });

  it("uses messageExpression, falling back to message when it fails or is not a usable string", () => {
    const spec = { replicas: 5, minReplicas: 1, maxReplicas: 3 };
    const expr = "'replicas ' + string(self.replicas) + ' above ' + string(self.maxReplicas)";
    expect(run(widget([{ rule: range, message: "static", messageExpression: expr }]), spec)).toEqual([
      "spec: Invalid value: replicas 5 above 3",
    ]);
    for (const broken of ["'x' + self.name", "'  '", "'a\\nb'"]) {
      expect(run(widget([{ rule: range, message: "static", messageExpression: broken }]), spec)).toEqual([
        "spec: Invalid value: static",
      ]);
    }
  });

  it.each<[ValidationRule["reason"], string]>([
    ["FieldValueForbidden", "spec: Forbidden: nope"],
    ["FieldValueRequired", "spec: Required value: nope"],
    ["FieldValueDuplicate", "spec: Duplicate value"],
    ["FieldValueInvalid", "spec: Invalid value: nope"],
  ])("reason %s", (reason, text) => {
    expect(run(widget([{ rule: "false", message: "nope", ...(reason ? { reason } : {}) }]), {})).toEqual([text]);
  });

  it("reports at fieldPath below the rule's node", () => {
    const rule = { rule: range, message: "out of range", fieldPath: ".replicas" };
    expect(run(widget([rule]), { replicas: 5, minReplicas: 1, maxReplicas: 3 })).toEqual([
      "spec.replicas: Invalid value: out of range",
    ]);
  });

  it("runs transition rules only on update, with oldSelf the correlated old value", () => {
    const schema = widget([], {
      name: { type: "string", "x-kubernetes-validations": [{ rule: "self == oldSelf", message: "name is immutable" }] },
    });
    expect(run(schema, { name: "a" })).toEqual([]);
    expect(run(schema, { name: "a" }, { name: "a" })).toEqual([]);
    expect(run(schema, { name: "b" }, { name: "a" })).toEqual(['spec.name: Invalid value: "b": name is immutable']);
    expect(run(schema, { name: "b" }, {})).toEqual([]);
  });

  it("gives optionalOldSelf rules an optional oldSelf, also on create", () => {
    const rule = {
      rule: "oldSelf.hasValue() ? self >= oldSelf.value() : self == 1",
      message: "grow only",
      optionalOldSelf: true,
    };
    const schema = widget([], { replicas: { type: "integer", "x-kubernetes-validations": [rule] } });
    expect(run(schema, { replicas: 2 })).toEqual(["spec.replicas: Invalid value: 2: grow only"]);
    expect(run(schema, { replicas: 1 })).toEqual([]);
    expect(run(schema, { replicas: 3 }, { replicas: 4 })).toEqual(["spec.replicas: Invalid value: 3: grow only"]);
  });

  it("correlates map list items by their keys, map entries by key", () => {
    const ports: StructuralSchema = {
      type: "array",
      "x-kubernetes-list-type": "map",
      "x-kubernetes-list-map-keys": ["name"],
      items: {
        type: "object",
        properties: { name: { type: "string" }, port: { type: "integer" } },
        "x-kubernetes-validations": [{ rule: "self.port == oldSelf.port", message: "port is immutable" }],
      },
    };
    const labels: StructuralSchema = {
      type: "object",
      additionalProperties: {
        type: "string",
        "x-kubernetes-validations": [{ rule: "self == oldSelf", message: "fixed" }],
      },
    };
    const schema = widget([], { ports, labels });
    const old = {
      ports: [
        { name: "a", port: 1 },
        { name: "b", port: 2 },
      ],
      labels: { x: "1" },
    };
    const reordered = {
      ports: [
        { name: "b", port: 2 },
        { name: "c", port: 9 },
        { name: "a", port: 1 },
      ],
      labels: { y: "2", x: "1" },
    };
    expect(run(schema, reordered, old)).toEqual([]);
    expect(run(schema, { ports: [{ name: "b", port: 3 }], labels: { x: "2" } }, old)).toEqual([
      "spec.ports[0]: Invalid value: port is immutable",
      'spec.labels[x]: Invalid value: "2": fixed',
    ]);
  });

  it("reports evaluation errors with the rule", () => {
    expect(run(widget([{ rule: "self.name.size() > 0" }]), {})).toEqual([
      'spec: Invalid value: "object": no such key: name evaluating rule: self.name.size() > 0',
    ]);
    const dyn = run(widget([{ rule: "self.target > 5", message: "too small" }]), { target: "80%" });
    expect(dyn).toHaveLength(1);
    expect(dyn[0]).toMatch(
      /^spec: Invalid value: "object": 'no such overload[^']*': call arguments did not match a supported operator, function or macro signature for rule: too small$/,
    );
  });

  it("reports rules that do not compile at every write", () => {
    expect(run(widget([{ rule: "self.nope == 1" }, { rule: "self.replicas" }]), {})).toEqual([
      "spec: Invalid value: \"object\": rule compile error: compilation failed: ERROR: <input>:1:5: undefined field 'nope'\n | self.nope == 1\n | ....^",
      'spec: Invalid value: "object": rule compile error: cel expression must evaluate to a bool',
    ]);
  });

  it("stops once the budget is spent", () => {
    const rules = [{ rule: "self.replicas > 0" }, { rule: "self.replicas > 1" }];
    expect(run(widget(rules), { replicas: 5 }, undefined, 1)).toEqual([
      'spec: Invalid value: "object": validation failed due to running out of cost budget, no further validation rules will be run',
    ]);
  });

  it("stops an expression over the per-call limit", () => {
    const validator = ruleValidatorFor(
      widget([{ rule: "[1,2,3,4,5,6,7,8,9,10].all(x, [1,2,3,4,5,6,7,8,9,10].all(y, x + y > 0))" }]),
      true,
      { perCallLimit: 10 },
    );
    const errors = validator?.validate({ spec: {} }).errors.map(formatFieldError);
    expect(errors).toEqual([
      "spec: Invalid value: \"object\": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: [1,2,3,4,5,6,7,8,9,10].all(x, [1,2,3,4,5,6,7,8,9,10].all(y, x + y > 0))",
    ]);
  });

  it("compares set lists ignoring order and gives the root apiVersion, kind and metadata", () => {
    const tags: StructuralSchema = { type: "array", items: { type: "string" }, "x-kubernetes-list-type": "set" };
    expect(run(widget([{ rule: "self.tags == ['b', 'a']" }], { tags }), { tags: ["a", "b"] })).toEqual([]);
    const root: StructuralSchema = {
      type: "object",
      properties: { spec: { type: "object" } },
      "x-kubernetes-validations": [{ rule: "self.kind == 'Widget' && self.metadata.name.startsWith('w')" }],
    };
    expect(ruleValidatorFor(root)?.validate({ kind: "Widget", metadata: { name: "w1" }, spec: {} }).errors).toEqual([]);
  });

  it("turns errors on unchanged values into warnings when ratcheting", () => {
    const schema = widget([], {
      name: { type: "string", "x-kubernetes-validations": [{ rule: "self.size() < 3", message: "short" }] },
    });
    const validator = ruleValidatorFor(schema);
    const obj = { spec: { name: "long", replicas: 1 } };
    const result = validator?.validate(obj, { spec: { name: "long", replicas: 2 } }, { ratcheting: true });
    expect(result?.errors).toEqual([]);
    expect(result?.warnings).toEqual(['spec.name: Invalid value: "long": short']);
    expect(validator?.validate(obj, { spec: { name: "lon" } }, { ratcheting: true }).errors).toHaveLength(1);
  });

  it("skips the rules when earlier errors mean the object has the wrong shape", () => {
    const schema = widget([{ rule: "false" }]);
    expect(validateSchemaRules(schema, { spec: {} }, undefined, [required("spec.x")]).map(formatFieldError)).toEqual([
      '<nil>: Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
    ]);
    expect(validateSchemaRules(schema, { spec: {} }, undefined, []).map(formatFieldError)).toEqual([
      "spec: Invalid value: failed rule: false",
    ]);
  });
});
