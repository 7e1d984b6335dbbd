import { validateHeaderValue } from "node:http";
import { describe, expect, it } from "vitest";
import {
  fieldValidationWarnings,
  parseFieldValidation,
  strictDecodingOutcome,
  validateFieldValidation,
  warningHeader,
} from "../../../runtime/codecs/field-validation.js";
import { StatusError } from "../../../runtime/errors/status-error.js";

function thrown(f: () => unknown): StatusError {
  try {
    f();
  } catch (e) {
    if (e instanceof StatusError) return e;
    throw e;
  }
  throw new Error("nothing thrown");
}

describe("parseFieldValidation", () => {
  it("defaults to Warn when absent or empty and takes the three levels as written", () => {
    expect(parseFieldValidation(new URLSearchParams())).toBe("Warn");
    expect(parseFieldValidation(new URLSearchParams("fieldValidation="))).toBe("Warn");
    for (const level of ["Ignore", "Warn", "Strict"]) {
      expect(parseFieldValidation(new URLSearchParams({ fieldValidation: level }))).toBe(level);
    }
  });

  it("refuses anything else with the 422 kube's options validation gives, against the options kind", () => {
    const err = thrown(() => parseFieldValidation(new URLSearchParams("fieldValidation=strict"), "UpdateOptions"));
    expect(err.code).toBe(422);
    expect(err.status).toMatchObject({
      reason: "Invalid",
      message:
        'UpdateOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "strict": supported values: "", "Ignore", "Strict", "Warn"',
      details: {
        group: "meta.k8s.io",
        kind: "UpdateOptions",
        causes: [
          {
            reason: "FieldValueNotSupported",
            message: 'Unsupported value: "strict": supported values: "", "Ignore", "Strict", "Warn"',
            field: "fieldValidation",
          },
        ],
      },
    });
    expect(thrown(() => parseFieldValidation(new URLSearchParams("fieldValidation=x"))).message).toMatch(
      /^CreateOptions\.meta\.k8s\.io "" is invalid/,
    );
  });

  it("reads the first value, as kube's parameter codec does", () => {
    expect(parseFieldValidation(new URLSearchParams("fieldValidation=Strict&fieldValidation=bogus"))).toBe("Strict");
  });

  it("exposes the field error for a combined options 422", () => {
    expect(validateFieldValidation("Ignore")).toEqual([]);
    expect(validateFieldValidation("no")).toHaveLength(1);
  });
});

describe("fieldValidationWarnings", () => {
  const unknown = ["spec.foo", "spec.template.spec.containers[0].bar"];
  const duplicates = ["metadata.name"];

  it("says nothing under Ignore", () => {
    expect(fieldValidationWarnings("Ignore", unknown, duplicates)).toEqual([]);
  });

  it("gives one warning per field under Warn, worded as kube's strict decoder", () => {
    expect(fieldValidationWarnings("Warn", unknown, duplicates)).toEqual([
      'unknown field "spec.foo"',
      'unknown field "spec.template.spec.containers[0].bar"',
      'duplicate field "metadata.name"',
    ]);
  });

  it("refuses the request under Strict with a 400 listing them all", () => {
    const err = thrown(() => fieldValidationWarnings("Strict", unknown, duplicates));
    expect(err.status).toMatchObject({ code: 400, reason: "BadRequest" });
    expect(err.message).toBe(
      'strict decoding error: unknown field "spec.foo", unknown field "spec.template.spec.containers[0].bar", duplicate field "metadata.name"',
    );
    const named = thrown(() =>
      fieldValidationWarnings("Strict", ["spec.foo"], [], { kind: "Deployment", version: "v1", into: "Deployment" }),
    );
    expect(named.message).toBe(
      'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.foo"',
    );
  });

  it("passes under Strict when there is nothing to report", () => {
    expect(fieldValidationWarnings("Strict", [], [])).toEqual([]);
  });
});

describe("strictDecodingOutcome", () => {
  it("splits a YAML strict report into one warning per line, as kube's parseYAMLWarnings", () => {
    const report =
      'yaml: unmarshal errors:\n  line 5: key "name" already set in map\n  line 9: key "a" already set in map';
    expect(strictDecodingOutcome("Warn", [report, 'unknown field "spec.x"'])).toEqual([
      'line 5: key "name" already set in map',
      'line 9: key "a" already set in map',
      'unknown field "spec.x"',
    ]);
  });
});

describe("warningHeader", () => {
  it("writes code 299, no agent and the quoted text", () => {
    expect(warningHeader('unknown field "spec.foo"')).toBe('299 - "unknown field \\"spec.foo\\""');
    expect(warningHeader("a\\b")).toBe('299 - "a\\\\b"');
  });

  it("yields values Node accepts, carrying non-ASCII text as UTF-8 bytes", () => {
    for (const text of ['unknown field "metadata.名前"', "line\nbreak\r", "nul\u0000here"]) {
      const header = warningHeader(text);
      expect(() => validateHeaderValue("Warning", header)).not.toThrow();
    }
    expect(Buffer.from(warningHeader("名前"), "latin1").toString("utf8")).toBe('299 - "名前"');
    expect(warningHeader("a\nb")).toBe('299 - "a b"');
  });
});
