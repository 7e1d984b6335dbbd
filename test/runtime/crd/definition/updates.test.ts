import { describe, expect, it } from "vitest";
import { createErrors, definition, specOf, statusErrors, stored, updateErrors, versionsOf } from "./fixtures.js";

const established = (crd: Record<string, unknown>) => {
  (crd.status as Record<string, unknown>).conditions = [{ type: "Established", status: "True" }];
  return crd;
};

describe("CustomResourceDefinition updates", () => {
  it("keeps group and plural, and scope and kind once established", () => {
    const old = established(stored(definition()));
    const crd = definition();
    specOf(crd).group = "example.org";
    specOf(crd).scope = "Cluster";
    specOf(crd).names = { plural: "gizmos", singular: "gizmo", kind: "Gizmo", listKind: "GizmoList" };
    const errors = updateErrors(crd, old);
    expect(errors).toEqual(
      expect.arrayContaining([
        'spec.scope: Invalid value: "Cluster": field is immutable',
        'spec.names.kind: Invalid value: "Gizmo": field is immutable',
        'spec.group: Invalid value: "example.org": field is immutable',
        'spec.names.plural: Invalid value: "gizmos": field is immutable',
      ]),
    );
  });

  it("lets scope and kind change before the definition is established", () => {
    const old = stored(definition());
    const crd = definition();
    specOf(crd).scope = "Cluster";
    expect(updateErrors(crd, old)).toEqual([]);
  });

  it("records a new storage version and keeps stored versions in spec.versions", () => {
    const old = stored(definition());
    const crd = definition();
    (versionsOf(crd)[0] as Record<string, unknown>).storage = false;
    versionsOf(crd).push({ name: "v2", served: true, storage: true, schema: { openAPIV3Schema: { type: "object" } } });
    expect(updateErrors(crd, old)).toEqual([]);
    expect(crd.status).toEqual({ storedVersions: ["v1", "v2"] });

    const dropped = definition();
    versionsOf(dropped)[0] = {
      name: "v2",
      served: true,
      storage: true,
      schema: { openAPIV3Schema: { type: "object" } },
    };
    expect(updateErrors(dropped, crd)).toEqual([
      'status.storedVersions[0]: Invalid value: "v1": missing from spec.versions; v1 was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in v1 and removes v1 from status.storedVersions',
    ]);
  });

  it("keeps accepting a schema the stored definition already had", () => {
    const old = stored(definition());
    const bad = versionsOf(old)[0] as Record<string, unknown>;
    bad.schema = { openAPIV3Schema: { type: "object", properties: { spec: { type: "bogus" } } } };
    const crd = structuredClone(old);
    delete crd.status;
    expect(updateErrors(crd, old)).toEqual([]);
    expect(createErrors(structuredClone(crd))).toEqual([
      'spec.validation.openAPIV3Schema.properties[spec].type: Unsupported value: "bogus": supported values: "array", "boolean", "integer", "number", "object", "string"',
    ]);
  });

  it("checks only accepted names on status updates", () => {
    const crd = stored(definition({ type: "bogus" }));
    (crd.status as Record<string, unknown>).acceptedNames = { plural: "Widgets", kind: "Widget" };
    expect(statusErrors(crd)).toEqual([
      expect.stringMatching(/^status\.acceptedNames\.plural: Invalid value: "Widgets": a DNS-1035 label/),
    ]);
  });
});
