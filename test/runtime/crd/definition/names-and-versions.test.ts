import { describe, expect, it } from "vitest";
import { createErrors, definition, specOf, versionsOf } from "./fixtures.js";

const dns1035 =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

describe("CustomResourceDefinition names", () => {
  it("accepts a valid definition", () => {
    expect(createErrors(definition())).toEqual([]);
  });

  it("requires the name to be <plural>.<group>", () => {
    const crd = definition();
    (crd.metadata as Record<string, unknown>).name = "gadgets.example.com";
    expect(createErrors(crd)).toEqual([
      'metadata.name: Invalid value: "gadgets.example.com": must be spec.names.plural+"."+spec.group',
    ]);
  });

  it("requires a group with a dot", () => {
    const crd = definition();
    specOf(crd).group = "example";
    (crd.metadata as Record<string, unknown>).name = "widgets.example";
    expect(createErrors(crd)).toEqual([
      'spec.group: Invalid value: "example": should be a domain with at least one dot',
    ]);
    specOf(crd).group = "";
    expect(createErrors(crd)).toContain("spec.group: Required value");
  });

  it("checks scope and the formats of names", () => {
    const crd = definition();
    specOf(crd).scope = "Global";
    specOf(crd).names = {
      plural: "widgets",
      singular: "Widget",
      kind: "Widget",
      listKind: "Widget",
      shortNames: ["w_1"],
      categories: ["all"],
    };
    expect(createErrors(crd)).toEqual([
      'spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"',
      `spec.names.singular: Invalid value: "Widget": ${dns1035}`,
      `spec.names.shortNames[0]: Invalid value: "w_1": ${dns1035}`,
      'spec.names.listKind: Invalid value: "Widget": kind and listKind may not be the same',
    ]);
  });

  it("defaults singular and listKind from the kind", () => {
    const crd = definition();
    specOf(crd).names = { plural: "widgets", kind: "Widget" };
    expect(createErrors(crd)).toEqual([]);
    expect(specOf(crd).names).toMatchObject({ singular: "widget", listKind: "WidgetList" });
    expect(specOf(crd).conversion).toEqual({ strategy: "None" });
    expect(crd.status).toEqual({ storedVersions: ["v1"] });
  });

  it("requires protected groups to carry the approval annotation", () => {
    const crd = definition();
    specOf(crd).group = "widgets.k8s.io";
    (crd.metadata as Record<string, unknown>).name = "widgets.widgets.k8s.io";
    expect(createErrors(crd)).toEqual([
      'metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111',
    ]);
    (crd.metadata as Record<string, unknown>).annotations = { "api-approved.kubernetes.io": "unapproved, testing" };
    expect(createErrors(crd)).toEqual([]);
  });
});

describe("CustomResourceDefinition versions", () => {
  const second = (extra: Record<string, unknown> = {}) => ({
    name: "v2",
    served: true,
    storage: false,
    schema: { openAPIV3Schema: { type: "object" } },
    ...extra,
  });

  it("requires exactly one storage version and unique names", () => {
    const crd = definition();
    versionsOf(crd).push(second({ name: "v1", storage: true }));
    const errors = createErrors(crd);
    expect(
      errors.some(
        (e) => e.startsWith("spec.versions: Invalid value: ") && e.endsWith(": must contain unique version names"),
      ),
    ).toBe(true);
    expect(errors.some((e) => e.endsWith(": must have exactly one version marked as storage version"))).toBe(true);
  });

  it("reports no stored version when no version is stored", () => {
    const crd = definition();
    (versionsOf(crd)[0] as Record<string, unknown>).storage = false;
    expect(createErrors(crd)).toEqual([
      expect.stringMatching(
        /^spec\.versions: Invalid value: .*: must have exactly one version marked as storage version$/,
      ),
      "status.storedVersions: Invalid value: []: must have at least one stored version",
    ]);
  });

  it("checks version names as DNS-1035 labels, also as spec.version", () => {
    const crd = definition();
    (versionsOf(crd)[0] as Record<string, unknown>).name = "V1";
    expect(createErrors(crd)).toEqual([
      `spec.versions[0].name: Invalid value: "V1": ${dns1035}`,
      `spec.version: Invalid value: "V1": ${dns1035}`,
    ]);
  });

  it("requires a schema for every version", () => {
    const crd = definition();
    versionsOf(crd).push({ name: "v2", served: true, storage: false });
    expect(createErrors(crd)).toEqual(["spec.versions[1].schema.openAPIV3Schema: Required value"]);
  });

  it("checks deprecation warnings", () => {
    const crd = definition();
    versionsOf(crd).push(second({ deprecationWarning: "old" }));
    versionsOf(crd).push(second({ name: "v3", deprecated: true, deprecationWarning: "x".repeat(257) }));
    expect(createErrors(crd)).toEqual([
      'spec.versions[1].deprecationWarning: Invalid value: "old": can only be set for deprecated versions',
      `spec.versions[2].deprecationWarning: Invalid value: "${"x".repeat(257)}": must be <= 256 characters long`,
    ]);
  });

  it("checks printer columns and scale paths at the shared path when all versions agree", () => {
    const crd = definition();
    Object.assign(versionsOf(crd)[0] as object, {
      additionalPrinterColumns: [{ name: "Size", type: "float", jsonPath: "spec.size" }],
      subresources: {
        status: {},
        scale: { specReplicasPath: ".status.replicas", statusReplicasPath: ".status.replicas" },
      },
    });
    expect(createErrors(crd)).toEqual([
      'spec.subresources.scale.specReplicasPath: Invalid value: ".status.replicas": should be a json path under .spec',
      'spec.additionalPrinterColumns[0].type: Invalid value: "float": must be one of boolean,date,integer,number,string',
      'spec.additionalPrinterColumns[0].JSONPath: Invalid value: "spec.size": must be a simple json path starting with .',
    ]);
  });

  it("checks selectable fields against the schema", () => {
    const crd = definition();
    Object.assign(versionsOf(crd)[0] as object, {
      selectableFields: [
        { jsonPath: ".spec.size" },
        { jsonPath: ".spec.size" },
        { jsonPath: ".spec" },
        { jsonPath: ".spec.nope" },
      ],
    });
    expect(createErrors(crd)).toEqual([
      'spec.selectableFields[1].jsonPath: Duplicate value: ".spec.size"',
      'spec.selectableFields[2].jsonPath: Invalid value: ".spec": must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.',
      'spec.selectableFields[3].jsonPath: Invalid value: ".spec.nope": is an invalid path: does not refer to a valid field',
    ]);
  });

  it("reports per-version paths when versions differ", () => {
    const crd = definition();
    versionsOf(crd).push(second({ schema: { openAPIV3Schema: { type: "object", properties: { spec: {} } } } }));
    expect(createErrors(crd)).toEqual([
      "spec.versions[1].schema.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields",
    ]);
  });
});
