import { describe, expect, it } from "vitest";
import { escapeFieldValue, parseFieldSelector, unescapeFieldValue } from "../../../runtime/selection/field-selector.js";
import {
  fieldLabelNotSupported,
  fieldSetOf,
  notKnownFieldSelector,
  readFieldPath,
  unsupportedFieldError,
} from "../../../runtime/selection/selectable-field-set.js";

function parsed(s: string) {
  const r = parseFieldSelector(s);
  if (!r.ok) throw new Error(r.error);
  return r.selector;
}

describe("parseFieldSelector: canonical form", () => {
  it.each([
    ["", ""],
    [",,", ""],
    ["metadata.name=foo", "metadata.name=foo"],
    ["b=2,a=1", "a=1,b=2"],
    [",a=1,", "a=1"],
    ["a==1", "a=1"],
    ["a!=1", "a!=1"],
    ["a=", "a="],
    ["=a", "=a"],
    ["a= b ", "a= b "],
    ["a=x\\,y", "a=x\\,y"],
    ["a=x\\=y\\\\z", "a=x\\=y\\\\z"],
    ["spec.nodeName!=,status.phase=Running", "spec.nodeName!=,status.phase=Running"],
    // Raw terms are sorted, so "!" (0x21) sorts before "=" (0x3d).
    ["a=1,a!=2", "a!=2,a=1"],
  ])("%j → %j", (input, canonical) => {
    expect(parsed(input).toString()).toBe(canonical);
  });
});

describe("parseFieldSelector: errors", () => {
  it.each([
    ["a", "invalid selector: 'a'; can't understand 'a'"],
    ["x=1,a", "invalid selector: 'x=1,a'; can't understand 'a'"],
    ["a=b=c", "invalid field selector: unescaped character in value: 61"],
    ["a!==b", "invalid field selector: unescaped character in value: 61"],
    ["a=b\\x", "invalid field selector: invalid escape sequence: \\x"],
    ["a=b\\", "invalid field selector: invalid escape sequence: \\"],
  ])("%j", (input, message) => {
    const r = parseFieldSelector(input);
    expect(r.ok ? "ok" : r.error).toBe(message);
  });
});

describe("escaping", () => {
  it.each([
    ["plain", "plain"],
    ["a,b=c\\d", "a\\,b\\=c\\\\d"],
    ["", ""],
  ])("%j round-trips through %j", (raw, escaped) => {
    expect(escapeFieldValue(raw)).toBe(escaped);
    expect(unescapeFieldValue(escaped)).toEqual({ ok: true, value: raw });
  });

  it("keeps escaped commas inside one term", () => {
    expect(parsed("metadata.name=a\\,b").requirements).toEqual([
      { field: "metadata.name", operator: "=", value: "a,b" },
    ]);
  });
});

describe("FieldSelector.matches", () => {
  const fields = { "metadata.name": "web", "status.phase": "Running", "spec.nodeName": "" };
  it.each([
    ["", true],
    ["metadata.name=web", true],
    ["metadata.name==web", true],
    ["metadata.name=db", false],
    ["metadata.name!=db", true],
    ["spec.nodeName=", true],
    ["spec.nodeName!=", false],
    ["missing=", true],
    ["missing!=x", true],
    ["metadata.name=web,status.phase!=Running", false],
    ["metadata.name=web,status.phase=Running", true],
  ])("%j → %s", (input, expected) => {
    expect(parsed(input).matches(fields)).toBe(expected);
  });

  it("reports the value an equality term pins", () => {
    const s = parsed("metadata.name!=a,metadata.namespace=ns");
    expect([s.requiresExactMatch("metadata.namespace"), s.requiresExactMatch("metadata.name")]).toEqual([
      "ns",
      undefined,
    ]);
  });
});

describe("field sets", () => {
  const pod = {
    metadata: { name: "p", namespace: "default" },
    spec: { nodeName: "n1", hostNetwork: true, priority: 5, containers: [{ name: "c" }] },
    status: { phase: "Running" },
  };

  it.each([
    ["spec.nodeName", "n1"],
    ["spec.hostNetwork", "true"],
    ["spec.priority", "5"],
    ["spec.containers", ""],
    ["spec.containers.0.name", ""],
    ["spec.missing", ""],
    ["status.phase.deeper", ""],
  ])("reads %s as %j", (path, value) => {
    expect(readFieldPath(pod, path)).toBe(value);
  });

  it("always holds name and namespace", () => {
    expect(fieldSetOf(pod, ["status.phase"])).toEqual({
      "metadata.name": "p",
      "metadata.namespace": "default",
      "status.phase": "Running",
    });
    expect(fieldSetOf({ metadata: { name: "node-1" } }, [])).toEqual({
      "metadata.name": "node-1",
      "metadata.namespace": "",
    });
  });

  it("names the first unsupported field in sorted order", () => {
    const allowed = new Set(["metadata.name", "metadata.namespace", "spec.nodeName"]);
    expect(unsupportedFieldError(parsed("spec.nodeName=a,metadata.name=b"), allowed)).toBeUndefined();
    expect(unsupportedFieldError(parsed("spec.foo=1,spec.bar=2"), allowed)).toBe("field label not supported: spec.bar");
    expect(unsupportedFieldError(parsed("spec.foo=1"), allowed, notKnownFieldSelector)).toBe(
      '"spec.foo" is not a known field selector: only "metadata.name", "metadata.namespace"',
    );
    expect(fieldLabelNotSupported("x")).toBe("field label not supported: x");
  });

  it("transforms terms, dropping those mapped to nothing and stopping at the first error", () => {
    const s = parsed("a=1,b=2,c=3");
    const t = s.transform((field, value) =>
      field === "b" ? { field: "", value: "" } : { field: `x.${field}`, value },
    );
    expect(t.ok && t.selector.toString()).toBe("x.a=1,x.c=3");
    const e = s.transform((field, value) =>
      field === "a" ? { field, value } : { error: fieldLabelNotSupported(field) },
    );
    expect(e).toEqual({ ok: false, error: "field label not supported: b" });
  });
});
