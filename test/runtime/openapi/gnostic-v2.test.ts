import { fileURLToPath } from "node:url";
import protobuf from "protobufjs";
import { describe, expect, it } from "vitest";
import { encodeOpenApiV2 } from "../../../runtime/openapi/gnostic-v2.js";
import { readPackageJson } from "../../../runtime/package-files.js";

type Message = Record<string, unknown>;

const v2Document = await readPackageJson<Record<string, unknown>>("generated/openapi/v2.json");

const root = new protobuf.Root();
root.loadSync(fileURLToPath(new URL("../../../runtime/openapi/gnostic-openapi-v2.proto", import.meta.url)), {
  keepCase: true,
});
const documentType = root.lookupType("openapi.v2.Document");
const decode = (doc: Record<string, unknown>) =>
  documentType.toObject(documentType.decode(encodeOpenApiV2(doc))) as Message;

/** A length-delimited field: tag (number, wire type 2), length, content (all short enough for 1-byte lengths). */
function field(number: number, ...content: (number | string)[]): number[] {
  const bytes = content.flatMap((c) => (typeof c === "string" ? [...Buffer.from(c)] : [c]));
  const tag = (number << 3) | 2;
  return [...(tag < 128 ? [tag] : [(tag & 0x7f) | 0x80, tag >> 7]), bytes.length, ...bytes];
}
const message = (number: number, ...fields: number[][]) => field(number, ...fields.flat());

describe("gnostic OpenAPI v2 encoding", () => {
  it("uses gnostic's field numbers", () => {
    expect([...encodeOpenApiV2({ swagger: "2.0" })]).toEqual(field(1, "2.0"));
    // Document.definitions (9) → Definitions.additional_properties (1) → NamedSchema{name 1, value 2} →
    // Schema.type (22) → TypeItem.value (1); Schema.vendor_extension (31) → NamedAny{name, value: Any.yaml (2)}.
    const schema = [...message(22, field(1, "string")), ...message(31, field(1, "x-a"), message(2, field(2, "1\n")))];
    expect([...encodeOpenApiV2({ definitions: { S: { type: "string", "x-a": 1 } } })]).toEqual(
      message(9, message(1, field(1, "S"), field(2, ...schema))),
    );
  });

  it("turns maps into ordered entries and free-form values into YAML", () => {
    const doc = decode({
      definitions: {
        A: {
          type: "object",
          required: ["b"],
          properties: {
            b: { type: "array", items: { $ref: "#/definitions/B" }, "x-kubernetes-list-map-keys": ["name"] },
            c: { type: "object", additionalProperties: { type: "string" }, default: {} },
            d: { type: "object", additionalProperties: true },
          },
          "x-kubernetes-group-version-kind": [{ group: "", kind: "A", version: "v1" }],
        },
      },
    });
    const [a] = (doc.definitions as { additional_properties: Message[] }).additional_properties;
    expect(a).toEqual({
      name: "A",
      value: {
        type: { value: ["object"] },
        required: ["b"],
        properties: {
          additional_properties: [
            {
              name: "b",
              value: {
                type: { value: ["array"] },
                items: { schema: [{ _ref: "#/definitions/B" }] },
                vendor_extension: [{ name: "x-kubernetes-list-map-keys", value: { yaml: "- name\n" } }],
              },
            },
            {
              name: "c",
              value: {
                type: { value: ["object"] },
                additional_properties: { schema: { type: { value: ["string"] } } },
                default: { yaml: "{}\n" },
              },
            },
            { name: "d", value: { type: { value: ["object"] }, additional_properties: { boolean: true } } },
          ],
        },
        vendor_extension: [
          { name: "x-kubernetes-group-version-kind", value: { yaml: '- group: ""\n  kind: A\n  version: v1\n' } },
        ],
      },
    });
  });

  it("picks the member of each oneof as gnostic does and leaves zero values out", () => {
    const doc = decode({
      paths: {
        "/p/{name}": {
          parameters: [{ $ref: "#/parameters/n" }],
          patch: {
            operationId: "patchP",
            parameters: [
              { in: "body", name: "body", required: true, schema: { $ref: "#/definitions/Patch" } },
              { in: "query", name: "force", type: "boolean", uniqueItems: true, required: false },
              { in: "path", name: "name", type: "string", required: true },
            ],
            responses: { "200": { description: "OK", schema: { type: "string" } }, "401": { $ref: "#/r" } },
            deprecated: false,
          },
        },
      },
      securityDefinitions: { BearerToken: { type: "apiKey", name: "authorization", in: "header" } },
      security: [{ BearerToken: [] }],
    });
    const [path] = (doc.paths as { path: Message[] }).path;
    expect(path).toEqual({
      name: "/p/{name}",
      value: {
        parameters: [{ json_reference: { _ref: "#/parameters/n" } }],
        patch: {
          operation_id: "patchP",
          parameters: [
            {
              parameter: {
                body_parameter: { name: "body", in: "body", required: true, schema: { _ref: "#/definitions/Patch" } },
              },
            },
            {
              parameter: {
                non_body_parameter: {
                  query_parameter_sub_schema: { in: "query", name: "force", type: "boolean", unique_items: true },
                },
              },
            },
            {
              parameter: {
                non_body_parameter: {
                  path_parameter_sub_schema: { required: true, in: "path", name: "name", type: "string" },
                },
              },
            },
          ],
          responses: {
            response_code: [
              {
                name: "200",
                value: { response: { description: "OK", schema: { schema: { type: { value: ["string"] } } } } },
              },
              { name: "401", value: { json_reference: { _ref: "#/r" } } },
            ],
          },
        },
      },
    });
    expect(doc.security_definitions).toEqual({
      additional_properties: [
        { name: "BearerToken", value: { api_key_security: { type: "apiKey", name: "authorization", in: "header" } } },
      ],
    });
    expect(doc.security).toEqual([{ additional_properties: [{ name: "BearerToken", value: {} }] }]);
  });

  it("encodes the served document with the patch metadata clients read", () => {
    const doc = decode(v2Document);
    expect(doc.swagger).toBe("2.0");
    const definitions = (doc.definitions as { additional_properties: { name: string; value: Message }[] })
      .additional_properties;
    const podSpec = definitions.find((d) => d.name === "io.k8s.api.core.v1.PodSpec")?.value as {
      properties: { additional_properties: { name: string; value: { vendor_extension: Message[] } }[] };
    };
    const containers = podSpec.properties.additional_properties.find((p) => p.name === "containers");
    expect(containers?.value.vendor_extension).toEqual([
      { name: "x-kubernetes-list-map-keys", value: { yaml: "- name\n" } },
      { name: "x-kubernetes-list-type", value: { yaml: "map\n" } },
      { name: "x-kubernetes-patch-merge-key", value: { yaml: "name\n" } },
      { name: "x-kubernetes-patch-strategy", value: { yaml: "merge\n" } },
    ]);
    const paths = (doc.paths as { path: { name: string; value: Record<string, Message> }[] }).path;
    expect(paths.length).toBe(Object.keys(v2Document.paths as object).length);
    const pod = paths.find((p) => p.name === "/api/v1/namespaces/{namespace}/pods/{name}");
    expect(pod?.value.patch?.operation_id).toBe("patchCoreV1NamespacedPod");
  });
});
