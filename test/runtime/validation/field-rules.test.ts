import { describe, expect, it } from "vitest";
import { formatFieldError } from "../../../runtime/errors/format-field-error.js";
import {
  immutableField,
  intOrPercentErrors,
  portNameErrors,
  semanticEqual,
} from "../../../runtime/validation/field-rules.js";

describe("field rules", () => {
  it("reads null and empty lists as unset, and ignores key order", () => {
    expect(semanticEqual({ a: [], b: null, c: { d: 1, e: 2 } }, { c: { e: 2, d: 1 } })).toBe(true);
    expect(semanticEqual({ a: [1] }, { a: [] })).toBe(false);
    expect(semanticEqual({}, undefined)).toBe(false);
  });

  it("prints the new value of an immutable field", () => {
    expect(immutableField("b", "a", "spec.x").map(formatFieldError)).toEqual([
      'spec.x: Invalid value: "b": field is immutable',
    ]);
    expect(immutableField(undefined, "a", "spec.x").map(formatFieldError)).toEqual([
      "spec.x: Invalid value: null: field is immutable",
    ]);
    expect(immutableField(["a"], ["a"], "spec.x")).toEqual([]);
  });

  it("words port names as kube's IsValidPortName", () => {
    expect(portNameErrors("http")).toEqual([]);
    expect(portNameErrors("-80-")).toEqual([
      "must contain at least one letter (a-z)",
      "must not begin or end with a hyphen",
    ]);
    expect(portNameErrors("a-very-long-port-name")).toEqual(["must be no more than 15 characters"]);
  });

  it("accepts counts and percentages for rollouts", () => {
    expect(intOrPercentErrors("25%", "p")).toEqual([]);
    expect(intOrPercentErrors(-1, "p").map(formatFieldError)).toEqual([
      "p: Invalid value: -1: must be greater than or equal to 0",
    ]);
    expect(intOrPercentErrors("25", "p").map(formatFieldError)).toEqual([
      `p: Invalid value: "25": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`,
    ]);
  });
});
