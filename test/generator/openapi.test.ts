import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { openapiEmitter } from "../../generator/emit/openapi.js";
import { componentSchemas } from "../../generator/openapi/component-schemas.js";
import { loadSchemaSet, schemaSetOf } from "../../generator/schema/schema-set.js";
import { toV2Schema } from "../../runtime/openapi/build-v2.js";
import { buildOpenApiV3Index, contentHash, documentHash } from "../../runtime/openapi/build-v3.js";
import { groupIdentifier, groupVersionTag } from "../../runtime/openapi/openapi-routes.js";

const golden = join(import.meta.dirname, "../golden/openapi-basic");

describe("OpenAPI component schemas", () => {
  it("wraps a $ref with siblings in allOf, drops x-kapi markers and marks kinds", () => {
    const set = schemaSetOf({
      "x.io/v1": {
        group: "x.io",
        version: "v1",
        stability: "stable",
        openapi: { prefix: "io.x.v1" },
        kinds: [{ kind: "Thing" }],
        definitions: {
          Thing: {
            type: "object",
            properties: {
              spec: { $ref: "#/definitions/Spec", default: {}, "x-kapi-proto": 2 },
              other: { $ref: "#/definitions/Spec" },
            },
          },
          Spec: { type: "object" },
        },
      },
    });
    expect(JSON.stringify(componentSchemas(set))).toBe(
      '{"io.x.v1.Thing":{"type":"object","properties":{' +
        '"spec":{"allOf":[{"$ref":"#/components/schemas/io.x.v1.Spec"}],"default":{}},' +
        '"other":{"$ref":"#/components/schemas/io.x.v1.Spec"}},' +
        '"x-kubernetes-group-version-kind":[{"group":"x.io","kind":"Thing","version":"v1"}]},' +
        '"io.x.v1.Spec":{"type":"object"}}',
    );
  });

  it("converts to v2: plain $ref with extension siblings, int-or-string as a string", () => {
    const v2 = toV2Schema({
      properties: {
        a: { allOf: [{ $ref: "#/components/schemas/S" }], default: {}, "x-kubernetes-patch-strategy": "retainKeys" },
        $ref: { type: "string", nullable: true },
      },
      oneOf: undefined,
    });
    expect(JSON.stringify(v2)).toBe(
      '{"properties":{"a":{"$ref":"#/definitions/S","x-kubernetes-patch-strategy":"retainKeys"},"$ref":{"type":"string"}}}',
    );
    expect(toV2Schema({ format: "int-or-string", oneOf: [{ type: "integer" }, { type: "string" }] })).toEqual({
      format: "int-or-string",
      type: "string",
    });
  });
});

describe("OpenAPI names", () => {
  it("spells groups as operation ids and tags do", () => {
    expect(groupIdentifier("")).toBe("Core");
    expect(groupIdentifier("rbac.authorization.k8s.io")).toBe("RbacAuthorization");
    expect(groupIdentifier("flowcontrol.apiserver.k8s.io")).toBe("FlowcontrolApiserver");
    expect(groupVersionTag({ group: "rbac.authorization.k8s.io", version: "v1" })).toBe("rbacAuthorization_v1");
  });

  it("points the v3 index at each document with the hash of its canonical JSON", () => {
    const hash = documentHash({ openapi: "3.0.0", info: {} });
    expect(hash).toBe(contentHash('{"info":{},"openapi":"3.0.0"}'));
    expect(hash).toMatch(/^[0-9A-F]{128}$/);
    const index = buildOpenApiV3Index({ "apis/x.io/v1": hash, "api/v1": "AB" });
    expect(JSON.stringify(index)).toBe(
      `{"paths":{"api/v1":{"serverRelativeURL":"/openapi/v3/api/v1?hash=AB"},` +
        `"apis/x.io/v1":{"serverRelativeURL":"/openapi/v3/apis/x.io/v1?hash=${hash}"}}}`,
    );
  });
});

describe("OpenAPI emitter", () => {
  it("matches the golden case", () => {
    const files = openapiEmitter.emit(loadSchemaSet(join(golden, "schemas"))).files;
    expect(files.map((f) => f.path)).toEqual([
      "openapi/v3/apis/example.com.json",
      "openapi/v3/apis/example.com/v1.json",
      "openapi/v3/index.json",
      "openapi/v2.json",
      "openapi/meta.json",
      "openapi/README.md",
    ]);
    for (const file of files) {
      const path = join(golden, "expected", file.path.replace(/(\.[a-z]+)$/, ".expected$1"));
      if (process.env.UPDATE_GOLDEN) {
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, file.content);
      }
      expect(existsSync(path) ? readFileSync(path, "utf8") : undefined, file.path).toBe(file.content);
    }
  });
});
