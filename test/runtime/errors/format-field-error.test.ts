import { describe, expect, it } from "vitest";
import {
  duplicate,
  forbidden,
  invalid,
  notSupported,
  required,
  tooLong,
  tooMany,
  typeInvalid,
} from "../../../runtime/errors/field-error.js";
import { child, index, key } from "../../../runtime/errors/field-path.js";
import { formatFieldError, formatFieldErrors } from "../../../runtime/errors/format-field-error.js";
import { goQuote } from "../../../runtime/errors/go-format.js";

describe("formatFieldError (Go field.Error.Error())", () => {
  it.each([
    [required("spec.selector"), "spec.selector: Required value"],
    [required("spec.x", "must be set"), "spec.x: Required value: must be set"],
    [
      invalid("spec.replicas", -1, "must be greater than or equal to 0"),
      "spec.replicas: Invalid value: -1: must be greater than or equal to 0",
    ],
    [invalid("metadata.name", "A_b", "bad"), 'metadata.name: Invalid value: "A_b": bad'],
    [invalid("spec.x", null, "bad"), "spec.x: Invalid value: null: bad"],
    [invalid("spec.x", 1.5, "bad"), "spec.x: Invalid value: 1.5: bad"],
    [invalid("spec.x", { b: 1, a: "<" }, "bad"), 'spec.x: Invalid value: {"a":"\\u003c","b":1}: bad'],
    [
      typeInvalid("spec.replicas", "string", 'spec.replicas in body must be of type integer: "string"'),
      'spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"',
    ],
    [
      notSupported("spec.type", "Foo", ["ClusterIP", "NodePort"]),
      'spec.type: Unsupported value: "Foo": supported values: "ClusterIP", "NodePort"',
    ],
    [notSupported("spec.n", 3, [1, 2]), 'spec.n: Unsupported value: 3: supported values: "1", "2"'],
    [duplicate("spec.containers[1].name", "a"), 'spec.containers[1].name: Duplicate value: "a"'],
    [forbidden("spec.x", "may not be set"), "spec.x: Forbidden: may not be set"],
    [tooLong("metadata.name", 253), "metadata.name: Too long: may not be more than 253 bytes"],
    [tooLong("x", 1), "x: Too long: may not be more than 1 byte"],
    [tooMany("spec.items", 5, 3), "spec.items: Too many: 5: must have at most 3 items"],
    [tooMany("spec.items", -1, 1), "spec.items: Too many: must have at most 1 item"],
  ])("%j", (error, text) => {
    expect(formatFieldError(error)).toBe(text);
  });

  it("quotes like Go's %q", () => {
    expect(goQuote('a"b\\c\n\u0001é')).toBe('"a\\"b\\\\c\\n\\x01é"');
  });

  it("aggregates: one error bare, several in brackets, duplicates dropped", () => {
    const a = required("spec.selector");
    const b = invalid("spec.replicas", -1, "must be greater than or equal to 0");
    expect(formatFieldErrors([a])).toBe("spec.selector: Required value");
    expect(formatFieldErrors([a, b, a])).toBe(
      "[spec.selector: Required value, spec.replicas: Invalid value: -1: must be greater than or equal to 0]",
    );
  });

  it("builds paths like field.Path", () => {
    expect(child(index(child(child("", "spec"), "containers"), 0), "name")).toBe("spec.containers[0].name");
    expect(key(child("metadata", "labels"), "app")).toBe("metadata.labels[app]");
  });
});
