import { describe, expect, it } from "vitest";
import { SchemaImporter, storageVersionHash } from "../../../scripts/import/build-schemas.js";
import type { ProtoMessage, UpstreamData } from "../../../scripts/import/upstream-data.js";

const meta = "io.k8s.apimachinery.pkg.apis.meta.v1";
const metaProto = "k8s.io.apimachinery.pkg.apis.meta.v1";

function message(pkg: string, name: string, fields: [string, number, string, boolean?][]): ProtoMessage {
  return {
    package: pkg,
    name,
    fields: fields.map(([n, number, type, repeated]) => ({ name: n, number, type, repeated: repeated ?? false })),
  };
}

function upstream(): UpstreamData {
  const definitions = new Map<string, Record<string, unknown>>([
    [
      `${meta}.ObjectMeta`,
      { type: "object", description: "prose", properties: { name: { type: "string", description: "prose" } } },
    ],
    [`${meta}.ListMeta`, { type: "object", properties: { continue: { type: "string" } } }],
    [
      "io.k8s.api.apps.v1.Widget",
      {
        type: "object",
        description: "upstream prose is dropped",
        "x-kubernetes-group-version-kind": [{ group: "apps", version: "v1", kind: "Widget" }],
        properties: {
          apiVersion: { type: "string" },
          kind: { type: "string" },
          metadata: { allOf: [{ $ref: `#/components/schemas/${meta}.ObjectMeta` }], default: {} },
          size: { type: "integer", format: "int32", default: 3 },
          ports: {
            type: "array",
            items: { $ref: "#/components/schemas/io.k8s.api.apps.v1.Port" },
            "x-kubernetes-list-type": "map",
            "x-kubernetes-list-map-keys": ["name"],
          },
          shape: { type: "string" },
        },
      },
    ],
    [
      "io.k8s.api.apps.v1.WidgetList",
      {
        type: "object",
        "x-kubernetes-group-version-kind": [{ group: "apps", version: "v1", kind: "WidgetList" }],
        properties: {
          metadata: { allOf: [{ $ref: `#/components/schemas/${meta}.ListMeta` }] },
          items: { type: "array", items: { $ref: "#/components/schemas/io.k8s.api.apps.v1.Widget" } },
        },
      },
    ],
    ["io.k8s.api.apps.v1.Port", { type: "object", required: ["name"], properties: { name: { type: "string" } } }],
    ["io.k8s.api.apps.v1.Shape", { type: "object", properties: { color: { type: "string" } } }],
  ]);
  const proto = new Map([
    [
      metaProto,
      new Map([
        ["ObjectMeta", message(metaProto, "ObjectMeta", [["name", 1, "string"]])],
        ["ListMeta", message(metaProto, "ListMeta", [["continue", 3, "string"]])],
      ]),
    ],
    [
      "k8s.io.api.apps.v1",
      new Map([
        [
          "Widget",
          message("k8s.io.api.apps.v1", "Widget", [
            ["metadata", 1, `${metaProto}.ObjectMeta`],
            ["size", 2, "int64"],
            ["ports", 3, "k8s.io.api.apps.v1.Port", true],
            ["shape", 4, "string"],
          ]),
        ],
        [
          "WidgetList",
          message("k8s.io.api.apps.v1", "WidgetList", [
            ["metadata", 1, `${metaProto}.ListMeta`],
            ["items", 2, "k8s.io.api.apps.v1.Widget", true],
          ]),
        ],
        ["Port", message("k8s.io.api.apps.v1", "Port", [["name", 1, "string"]])],
        ["Shape", message("k8s.io.api.apps.v1", "Shape", [["color", 1, "string"]])],
        ["WidgetOptions", message("k8s.io.api.apps.v1", "WidgetOptions", [["dryRun", 1, "string", true]])],
      ]),
    ],
  ]);
  return {
    definitions,
    proto,
    discovery: [
      {
        group: "apps",
        version: "v1",
        groupPriority: 1,
        versionPriority: 0,
        storageVersionHash: new Map([["widgets", storageVersionHash("apps", "v1", "Widget")]]),
        resources: [
          {
            resource: "widgets",
            singularResource: "widget",
            scope: "Namespaced",
            verbs: ["list", "get", "create"],
            shortNames: ["wd"],
            responseKind: { group: "", version: "", kind: "Widget" },
            subresources: [{ subresource: "status", verbs: ["get"] }],
          },
        ],
      },
    ],
  };
}

describe("SchemaImporter", () => {
  const { files, report } = new SchemaImporter(upstream()).run();
  const apps = files.get("apps/v1");

  it("maps packages to schema files with group, version and protobuf package", () => {
    expect([...files.keys()]).toEqual(["apps/v1", "meta/v1"]);
    expect(apps).toMatchObject({
      group: "apps",
      version: "v1",
      stability: "stable",
      enabledByDefault: true,
      priority: { group: 1, version: 0 },
      protobuf: { package: "k8s.io.api.apps.v1" },
      openapi: { prefix: "io.k8s.api.apps.v1" },
    });
  });

  it("takes kinds and their REST mapping from discovery, with the storage version from its hash", () => {
    expect(apps?.kinds).toEqual([
      {
        kind: "Widget",
        listKind: "WidgetList",
        resource: {
          plural: "widgets",
          singular: "widget",
          scope: "Namespaced",
          nameFormat: "dns-subdomain",
          verbs: ["create", "get", "list"],
          shortNames: ["wd"],
          subresources: [{ name: "status", verbs: ["get"] }],
          storageVersion: true,
        },
      },
    ]);
  });

  it("drops prose, rewrites refs, and numbers fields from generated.proto", () => {
    expect(apps?.definitions.Widget).toEqual({
      type: "object",
      properties: {
        apiVersion: { type: "string" },
        kind: { type: "string" },
        metadata: { $ref: "../meta/v1.yaml#/definitions/ObjectMeta", default: {}, "x-kapi-proto": 1 },
        size: { type: "integer", format: "int32", default: 3, "x-kapi-proto": 2, "x-kapi-proto-type": "int64" },
        ports: {
          type: "array",
          items: { $ref: "#/definitions/Port" },
          "x-kubernetes-list-type": "map",
          "x-kubernetes-list-map-keys": ["name"],
          "x-kapi-proto": 3,
        },
        shape: { type: "string", "x-kapi-proto": 4 },
      },
    });
    expect(files.get("meta/v1")?.definitions.ObjectMeta).toEqual({
      type: "object",
      properties: { name: { type: "string", "x-kapi-proto": 1 } },
    });
  });

  it("makes definitions of protobuf-only messages", () => {
    expect(apps?.definitions.WidgetOptions).toEqual({
      type: "object",
      properties: { dryRun: { type: "array", items: { type: "string" }, "x-kapi-proto": 1 } },
    });
    // The fixture has none of the protobuf-only review packages; nothing else is reported.
    expect(report.filter((line) => !line.endsWith("not in upstream generated.proto"))).toEqual([]);
  });
});

describe("storageVersionHash", () => {
  it("matches the hash kube-apiserver publishes for core ConfigMaps", () => {
    expect(storageVersionHash("", "v1", "ConfigMap")).toBe("qFsyl6wFWjQ=");
  });
});
