import { describe, expect, it } from "vitest";
import { formatFieldError } from "../../../runtime/errors/format-field-error.js";
import { isBase64 } from "../../../runtime/validation/formats.js";
import * as c from "../../../runtime/validation/schema-checks.js";
import { isDateTime } from "../../../sdk/date-time.js";

const errors = (check: c.Check, value: unknown): string[] =>
  c.run((v, _p, e) => check(v, "spec.x", e), value).map(formatFieldError);

describe("schema checks", () => {
  it.each([
    ["absent passes", (v: unknown, p: string, e: never[]) => c.string(v, p, e), undefined, []],
    ["null passes", (v: unknown, p: string, e: never[]) => c.integer(v, p, e), null, []],
    [
      "float for integer",
      (v: unknown, p: string, e: never[]) => c.integer(v, p, e),
      1.5,
      ['spec.x: Invalid value: "number": spec.x in body must be of type integer: "number"'],
    ],
    [
      "minimum",
      (v: unknown, p: string, e: never[]) => c.integer(v, p, e, { minimum: 0 }),
      -1,
      ["spec.x: Invalid value: -1: spec.x in body should be greater than or equal to 0"],
    ],
    [
      "exclusive maximum",
      (v: unknown, p: string, e: never[]) => c.number(v, p, e, { maximum: 1, exclusiveMaximum: true }),
      1,
      ["spec.x: Invalid value: 1: spec.x in body should be less than 1"],
    ],
    [
      "maxLength",
      (v: unknown, p: string, e: never[]) => c.string(v, p, e, { maxLength: 2 }),
      "abc",
      ["spec.x: Too long: may not be more than 2 bytes"],
    ],
    [
      "minLength",
      (v: unknown, p: string, e: never[]) => c.string(v, p, e, { minLength: 2 }),
      "a",
      ['spec.x: Invalid value: "a": spec.x in body should be at least 2 chars long'],
    ],
    [
      "pattern",
      (v: unknown, p: string, e: never[]) => c.string(v, p, e, { pattern: "^[a-z]+$" }),
      "A",
      ["spec.x: Invalid value: \"A\": spec.x in body should match '^[a-z]+$'"],
    ],
    [
      "byte",
      (v: unknown, p: string, e: never[]) => c.string(v, p, e, { format: "byte" }),
      "!!",
      ['spec.x: Invalid value: "!!": spec.x in body must be of type byte: "!!"'],
    ],
    [
      "maxItems",
      (v: unknown, p: string, e: never[]) => c.list(v, p, e, undefined, { maxItems: 1 }),
      [1, 2],
      ["spec.x: Too many: 2: must have at most 1 item"],
    ],
    [
      "minItems",
      (v: unknown, p: string, e: never[]) => c.list(v, p, e, undefined, { minItems: 1 }),
      [],
      ["spec.x: Invalid value: 0: spec.x in body should have at least 1 items"],
    ],
    [
      "set",
      (v: unknown, p: string, e: never[]) => c.list(v, p, e, undefined, { listType: "set" }),
      [1, 2, 1],
      ["spec.x[2]: Duplicate value: 1"],
    ],
    [
      "list map key default",
      (v: unknown, p: string, e: never[]) =>
        c.list(v, p, e, undefined, {
          listType: "map",
          mapKeys: ["port", "protocol"],
          keyDefaults: { protocol: "TCP" },
        }),
      [{ port: 1 }, { port: 1, protocol: "TCP" }],
      ['spec.x[1]: Duplicate value: {"port":1,"protocol":"TCP"}'],
    ],
    [
      "boolean enum",
      (v: unknown, p: string, e: never[]) => c.boolean(v, p, e, { enum: [true] }),
      false,
      ['spec.x: Unsupported value: false: supported values: "true"'],
    ],
    [
      "map entries",
      (v: unknown, p: string, e: never[]) => c.map(v, p, e, c.string),
      { a: "x", b: 2 },
      ['spec.x[b]: Invalid value: "integer": spec.x[b] in body must be of type string: "integer"'],
    ],
  ])("%s", (_name, check, value, expected) => {
    expect(errors(check as c.Check, value)).toEqual(expected);
  });

  it("formats", () => {
    expect(["2024-01-02T03:04:05Z", "2024-01-02T03:04:05.123+01:00"].every(isDateTime)).toBe(true);
    expect(["2024-13-02T03:04:05Z", "2024-01-02 03:04:05Z", "yesterday"].some(isDateTime)).toBe(false);
    expect([isBase64("aGk="), isBase64("aGk"), isBase64("")]).toEqual([true, false, true]);
  });
});
