// Values nested far deeper than Node's call stack allows recursion through: every codec walk keeps its own
// stack, so JSON and YAML text, protobuf messages, the field table's check and CRD defaulting handle them.
import { describe, expect, it } from "vitest";
import { decodeBody } from "../../../runtime/codecs/decode-body.js";
import { toGoYaml } from "../../../runtime/codecs/go-yaml.js";
import { parseJson } from "../../../runtime/codecs/json-body.js";
import { jsonText } from "../../../runtime/codecs/json-text.js";
import { decodeProtobufObject } from "../../../runtime/codecs/protobuf/protobuf-body.js";
import { encodeProtobuf } from "../../../runtime/codecs/protobuf/protobuf-response.js";
import { checkFields, kindFields } from "../../../runtime/codecs/unknown-fields.js";
import { parseYaml } from "../../../runtime/codecs/yaml-body.js";
import { customResourceSchema } from "../../../runtime/crd/schema/custom-resource-schema.js";
import { StatusError } from "../../../runtime/errors/status-error.js";

type Json = Record<string, unknown>;

/** `{a: {a: … leaf …}}`, `levels` objects deep. */
function nested(levels: number, leaf: unknown = "x"): unknown {
  let value = leaf;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

/** A CRD whose version schema nests `levels` object properties under spec. */
function definition(levels: number): Json {
  let schema: Json = { type: "string" };
  for (let i = 0; i < levels; i++) schema = { type: "object", properties: { a: schema } };
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "deeps.deep.example.com" },
    spec: {
      group: "deep.example.com",
      scope: "Namespaced",
      names: { plural: "deeps", singular: "deep", kind: "Deep", listKind: "DeepList" },
      versions: [
        {
          name: "v1",
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: "object", properties: { spec: schema } } },
        },
      ],
    },
  };
}

/** The innermost schema of a definition made by `definition`. */
function innermost(crd: Json, levels: number): Json {
  // biome-ignore lint/suspicious/noExplicitAny: walking a known shape
  let schema = (crd as any).spec.versions[0].schema.openAPIV3Schema.properties.spec;
  for (let i = 0; i < levels; i++) schema = schema.properties.a;
  return schema;
}

describe("JSON text of deep values", () => {
  it("writes what JSON.stringify writes, compact and indented, past the depth it can reach", () => {
    const depth = 20000;
    expect(jsonText(nested(depth))).toBe(`${'{"a":'.repeat(depth)}"x"${"}".repeat(depth)}`);
    const lists = nested(depth, [1, null, undefined, { b: undefined, c: [] }]);
    expect(jsonText(lists)).toBe(`${'{"a":'.repeat(depth)}[1,null,null,{"c":[]}]${"}".repeat(depth)}`);
    const pretty = jsonText(nested(6000, {}), true);
    const lines = pretty.split("\n");
    expect(lines).toHaveLength(2 * 6000 + 1);
    expect(lines[6000]).toBe(`${"  ".repeat(6000)}"a": {}`);
    expect(lines.at(-1)).toBe("}");
  });
});

describe("YAML text of deep values", () => {
  it("writes a value nested 10,000 deep, which reads back as the same value", () => {
    const value = { spec: nested(5000, [nested(4990, "multi\nline")]) };
    const yaml = toGoYaml(value);
    expect(yaml.startsWith("spec:\n  a:\n    a:\n")).toBe(true);
    const parsed = parseYaml(Buffer.from(yaml));
    // Compared as text: the matchers themselves recurse.
    expect("value" in parsed && jsonText(parsed.value)).toBe(jsonText(value));
  });

  it("writes multi-line keys as explicit block keys, as before it wrote documents itself", () => {
    expect(toGoYaml({ "a\nb": { c: 1 } })).toBe("? |-\n  a\n  b\n: c: 1\n");
  });
});

describe("protobuf of deep values", () => {
  it("writes and reads a CRD whose schema nests 3,000 levels", () => {
    const crd = definition(3000);
    const decoded = decodeProtobufObject(encodeProtobuf(crd));
    expect(innermost(decoded, 3000)).toEqual({ type: "string" });
  });

  it("refuses a body nesting messages deeper than kube can store, in the words its JSON reader fails with", () => {
    const body = encodeProtobuf(definition(6000));
    const gvk = { group: "apiextensions.k8s.io", version: "v1", kind: "CustomResourceDefinition" };
    let failure: unknown;
    try {
      decodeBody("application/vnd.kubernetes.protobuf", body, gvk);
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(StatusError);
    expect((failure as StatusError).code).toBe(400);
    expect((failure as StatusError).message).toMatch(
      /^the object provided is unrecognized \(must be of type CustomResourceDefinition\): couldn't get version\/kind; json parse error: invalid character '\{' exceeded max depth \(6b387300/,
    );
  });
});

describe("field checks of deep values", () => {
  it("walks a CRD's schema 4,000 levels deep, dropping and reporting an unknown field at the bottom", () => {
    const crd = definition(4000);
    innermost(crd, 4000).bogus = true;
    const n = kindFields("apiextensions.k8s.io", "v1", "CustomResourceDefinition") as number;
    const check = checkFields(crd, n);
    expect(check.fatal).toBeUndefined();
    expect(check.unknown).toEqual([
      `spec.versions[0].schema.openAPIV3Schema.properties.spec${".properties.a".repeat(4000)}.bogus`,
    ]);
    expect(innermost(crd, 4000)).toEqual({ type: "string" });
  });

  it("names a value of the wrong type deep down as encoding/json does", () => {
    const crd = definition(3000);
    innermost(crd, 3000).type = 5;
    const n = kindFields("apiextensions.k8s.io", "v1", "CustomResourceDefinition") as number;
    expect(checkFields(crd, n).fatal).toBe(
      `json: cannot unmarshal number into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.properties${".properties".repeat(3000)}.type of type string`,
    );
  });
});

describe("custom resource defaults nested deep", () => {
  it("gives every defaulted field a copy of its own of a default nested 5,000 deep", () => {
    const schema = customResourceSchema({
      type: "object",
      properties: {
        spec: {
          type: "object",
          properties: {
            first: { type: "object", "x-kubernetes-preserve-unknown-fields": true, default: nested(5000) },
            second: { type: "object", "x-kubernetes-preserve-unknown-fields": true, default: nested(5000) },
          },
        },
      },
    });
    const obj: Json = { spec: {} };
    schema.default(obj);
    const spec = obj.spec as Json;
    expect(jsonText(spec.first)).toBe(jsonText(nested(5000)));
    expect(spec.first === spec.second).toBe(false);
  });
});

describe("repeated keys at every level", () => {
  it("names the first 100 and reads the body in bounded time", () => {
    let body = "1";
    for (let i = 0; i < 9990; i++) body = `{"a":1,"a":${body}}`;
    const parsed = parseJson(Buffer.from(body));
    expect("duplicates" in parsed && parsed.duplicates.length).toBe(100);
  });
});
