import { describe, expect, it } from "vitest";
import type { SchemaFile } from "../../generator/schema/model.js";
import { schemaSetOf } from "../../generator/schema/schema-set.js";
import { validateSchemaSet } from "../../generator/validate/validate-schemas.js";

const meta: SchemaFile = {
  group: "meta.k8s.io",
  version: "v1",
  stability: "stable",
  openapi: { prefix: "io.k8s.apimachinery.pkg.apis.meta.v1" },
  protobuf: { package: "k8s.io.apimachinery.pkg.apis.meta.v1" },
  definitions: {
    ObjectMeta: { type: "object", properties: { name: { type: "string", "x-kapi-proto": 1 } } },
    ListMeta: { type: "object", properties: { continue: { type: "string", "x-kapi-proto": 3 } } },
  },
};

function widgets(patch: (f: SchemaFile) => void = () => {}): SchemaFile {
  const file: SchemaFile = {
    group: "example.kapi.dev",
    version: "v1",
    stability: "stable",
    openapi: { prefix: "dev.kapi.example.v1" },
    protobuf: { package: "dev.kapi.example.v1" },
    kinds: [
      {
        kind: "Widget",
        listKind: "WidgetList",
        resource: {
          plural: "widgets",
          singular: "widget",
          scope: "Namespaced",
          nameFormat: "dns-subdomain",
          verbs: ["get", "list"],
          storageVersion: true,
        },
      },
    ],
    definitions: {
      Widget: {
        type: "object",
        properties: {
          apiVersion: { type: "string" },
          kind: { type: "string" },
          metadata: { $ref: "../meta/v1.yaml#/definitions/ObjectMeta", "x-kapi-proto": 1 },
          ports: {
            type: "array",
            items: { $ref: "#/definitions/Port" },
            "x-kubernetes-list-type": "map",
            "x-kubernetes-list-map-keys": ["name"],
            "x-kapi-proto": 2,
          },
        },
      },
      WidgetList: {
        type: "object",
        properties: {
          metadata: { $ref: "../meta/v1.yaml#/definitions/ListMeta", "x-kapi-proto": 1 },
          items: { type: "array", items: { $ref: "#/definitions/Widget" }, "x-kapi-proto": 2 },
        },
      },
      Port: {
        type: "object",
        required: ["name"],
        properties: { name: { type: "string", "x-kapi-proto": 1 }, port: { type: "integer", "x-kapi-proto": 2 } },
      },
    },
  };
  patch(file);
  return file;
}

async function problems(file: SchemaFile): Promise<string[]> {
  return validateSchemaSet(schemaSetOf({ "meta/v1": meta, "example.kapi.dev/v1": file }));
}

describe("validateSchemaSet", () => {
  it("accepts a well-formed group", async () => {
    expect(await problems(widgets())).toEqual([]);
  });

  it.each([
    [
      "an unresolved $ref",
      (f: SchemaFile) => {
        f.definitions.Port = {
          type: "object",
          properties: { name: { $ref: "#/definitions/Nope", "x-kapi-proto": 1 } },
        };
      },
      "schemas/example.kapi.dev/v1.yaml: definitions.Port.name: $ref #/definitions/Nope does not resolve",
    ],
    [
      "a duplicate protobuf number",
      (f: SchemaFile) => {
        const port = f.definitions.Port?.properties?.port;
        if (port) port["x-kapi-proto"] = 1;
      },
      "schemas/example.kapi.dev/v1.yaml: definitions.Port: protobuf number 1 is used twice",
    ],
    [
      "a field without a protobuf number",
      (f: SchemaFile) => {
        const port = f.definitions.Port?.properties?.port;
        if (port) delete port["x-kapi-proto"];
      },
      "schemas/example.kapi.dev/v1.yaml: definitions.Port.port: needs a protobuf field number (x-kapi-proto)",
    ],
    [
      "an optional list map key",
      (f: SchemaFile) => {
        if (f.definitions.Port) f.definitions.Port.required = [];
      },
      "schemas/example.kapi.dev/v1.yaml: definitions.Widget.ports: list map key name must be required or have a default",
    ],
    [
      "a non-scalar list map key",
      (f: SchemaFile) => {
        const w = f.definitions.Widget?.properties?.ports;
        if (w) w["x-kubernetes-list-map-keys"] = ["meta"];
        f.definitions.Port = {
          type: "object",
          required: ["meta"],
          properties: { meta: { type: "object", "x-kapi-proto": 1 } },
        };
      },
      "schemas/example.kapi.dev/v1.yaml: definitions.Widget.ports: list map key meta must be a scalar",
    ],
    [
      "a kind without metadata",
      (f: SchemaFile) => {
        delete f.definitions.Widget?.properties?.metadata;
      },
      "schemas/example.kapi.dev/v1.yaml: kinds[0].kind: served kind Widget needs metadata: ObjectMeta",
    ],
    [
      "a plural that is not a DNS label",
      (f: SchemaFile) => {
        const r = f.kinds?.[0]?.resource;
        if (r) r.plural = "Widgets";
      },
      "schemas/example.kapi.dev/v1.yaml: kinds[0].resource.plural: Widgets is not a lowercase DNS label",
    ],
    [
      "a stability that contradicts the version",
      (f: SchemaFile) => {
        f.stability = "beta";
      },
      "schemas/example.kapi.dev/v1.yaml: stability: must be stable for v1",
    ],
    [
      "a resource without a storage version",
      (f: SchemaFile) => {
        const r = f.kinds?.[0]?.resource;
        if (r) delete r.storageVersion;
      },
      "schemas/example.kapi.dev/v1.yaml: kinds: example.kapi.dev/widgets needs exactly one storage version, has 0",
    ],
  ])("reports %s", async (_name, patch, expected) => {
    expect(await problems(widgets(patch))).toContain(expected);
  });
});
