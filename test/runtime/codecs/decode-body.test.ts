import { describe, expect, it } from "vitest";
import { acceptedBodyTypes, type DecodedBody, decodeBody } from "../../../runtime/codecs/decode-body.js";
import { StatusError } from "../../../runtime/errors/status-error.js";

const deployments = { group: "apps", version: "v1", kind: "Deployment" };

function decode(body: string, contentType?: string): DecodedBody {
  return decodeBody(contentType, Buffer.from(body), deployments);
}

/** The Status a decode fails with. */
function failure(body: string | Buffer, contentType?: string, target = deployments): { code: number; message: string } {
  try {
    decodeBody(contentType, typeof body === "string" ? Buffer.from(body) : body, target);
  } catch (e) {
    if (e instanceof StatusError) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error("decoded without error");
}

const typeMetaStruct =
  'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

describe("decodeBody: media types", () => {
  it("decodes JSON when Content-Type is missing or empty, and with parameters", () => {
    expect(decode('{"kind":"Deployment"}').value).toEqual({ kind: "Deployment" });
    expect(decode("{}", "").value).toEqual({});
    expect(decode("{}", "application/json; charset=utf-8").value).toEqual({});
    expect(decode("a: 1", "Application/YAML; charset=utf-8").value).toEqual({ a: 1 });
  });

  it("answers 415 listing the accepted types, as kube lists them, for anything else", () => {
    const message =
      "the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf";
    for (const type of [
      "text/plain",
      "application/vnd.kubernetes.protobuf+json",
      "json",
      "application/merge-patch+json",
    ]) {
      expect(failure("{}", type)).toEqual({ code: 415, message });
    }
    expect(acceptedBodyTypes()).toEqual([
      "application/json",
      "application/yaml",
      "application/vnd.kubernetes.protobuf",
    ]);
  });
});

describe("decodeBody: malformed JSON, in encoding/json's words", () => {
  const cases: [string, string][] = [
    ["   ", "unexpected end of JSON input"],
    ['{"a":', "unexpected end of JSON input"],
    ['{"a" 1}', "invalid character '1' after object key"],
    ['{"a":1 "b":2}', "invalid character '\"' after object key:value pair"],
    ['{"a":1,}', "invalid character '}' looking for beginning of object key string"],
    ["{a:1}", "invalid character 'a' looking for beginning of object key string"],
    ['{"a":[1,]}', "invalid character ']' looking for beginning of value"],
    ['{"a":[1 2]}', "invalid character '2' after array element"],
    ['{"a":tru}', "invalid character '}' in literal true (expecting 'e')"],
    ['{"a":nul}', "invalid character '}' in literal null (expecting 'l')"],
    ['{"a":01}', "invalid character '1' after object key:value pair"],
    ['{"a":-x}', "invalid character 'x' in numeric literal"],
    ['{"a":1.}', "invalid character '}' after decimal point in numeric literal"],
    ['{"a":1e}', "invalid character '}' in exponent of numeric literal"],
    ['{"a":"x\ny"}', "invalid character '\\n' in string literal"],
    ['{"a":"\\q"}', "invalid character 'q' in string escape code"],
    ['{"a":"\\u12g4"}', "invalid character 'g' in \\u hexadecimal character escape"],
    ["{} {}", "invalid character '{' after top-level value"],
    ["\ufeff{}", "invalid character 'ï' looking for beginning of value"],
    ["'a'", "invalid character '\\'' looking for beginning of value"],
    ["\u00a0{}", "invalid character 'Â' looking for beginning of value"],
  ];
  it.each(cases)("%j", (body, reason) => {
    expect(failure(body).message).toBe(
      `the object provided is unrecognized (must be of type Deployment): couldn't get version/kind; json parse error: ${reason} (${
        body.startsWith("{") ? body : Buffer.from(body).toString("hex")
      })`,
    );
  });

  it("quotes at most 30 bytes of the body, as text when it starts like an object, else in hex", () => {
    expect(failure("").message).toMatch(/unexpected end of JSON input \(<empty>\)$/);
    const long = `{"metadata": {"name": "a-rather-long-name"}, "spec": }`;
    expect(failure(long).message).toMatch(/\(\{"metadata": \{"name": "a-rathe \.\.\.\)$/);
    expect(failure(`[${"1,".repeat(20)}]`).message).toMatch(new RegExp(`\\(5b${"312c".repeat(14)}31 \\.\\.\\.\\)$`));
  });

  it("gives the reason alone without a target kind", () => {
    expect(() => decodeBody(undefined, Buffer.from("{"))).toThrow(
      "couldn't get version/kind; json parse error: unexpected end of JSON input",
    );
  });

  it("refuses nesting deeper than Go's scanner allows, without exhausting the stack", () => {
    expect(failure("[".repeat(10001)).message).toContain("invalid character '[' exceeded max depth");
    const deep = `{"a":${"[".repeat(9999)}${"]".repeat(9999)}}`;
    expect(decode(deep).value).toHaveProperty("a");
  });
});

describe("decodeBody: what kube reads apiVersion and kind from", () => {
  it("refuses a body that is not an object", () => {
    for (const [body, what] of [
      ["[1,2]", "array"],
      ['"x"', "string"],
      ["3", "number"],
      ["true", "bool"],
    ]) {
      expect(failure(body as string)).toEqual({
        code: 400,
        message: `the object provided is unrecognized (must be of type Deployment): couldn't get version/kind; json parse error: json: cannot unmarshal ${what} into Go value of type ${typeMetaStruct} (${Buffer.from(body as string).toString("hex")})`,
      });
    }
  });

  it("decodes null into an empty object, as into a Go struct", () => {
    expect(decode("null").value).toEqual({});
    expect(decode("", "application/yaml").value).toEqual({});
  });

  it("refuses an apiVersion or kind that is not a string, and an apiVersion with two slashes", () => {
    expect(failure('{"kind":1}').message).toBe(
      'the object provided is unrecognized (must be of type Deployment): couldn\'t get version/kind; json parse error: json: cannot unmarshal number into Go struct field .kind of type string ({"kind":1})',
    );
    expect(failure('{"apiVersion":{}}').message).toContain("cannot unmarshal object into Go struct field .apiVersion");
    expect(failure('{"apiVersion":"a/b/c"}').message).toBe(
      'the object provided is unrecognized (must be of type Deployment): unexpected GroupVersion string: a/b/c ({"apiVersion":"a/b/c"})',
    );
  });

  it("defaults the group, version and kind a body leaves out from the target", () => {
    expect(decode("{}").gvk).toEqual(deployments);
    expect(decode('{"apiVersion":"apps/v1beta1"}').gvk).toEqual({
      group: "apps",
      version: "v1beta1",
      kind: "Deployment",
    });
    expect(decode('{"apiVersion":"v1","kind":"Pod"}').gvk).toEqual({ group: "", version: "v1", kind: "Pod" });
    expect(decode('{"apiVersion":"apps/"}').gvk).toEqual(deployments);
  });
});

describe("decodeBody: duplicate keys in JSON", () => {
  const body = `{
    "metadata": {"name": "a", "labels": {"x": "1", "x": "2"}, "name": "b"},
    "spec": {"template": {"spec": {"containers": [{"name": "c"}, {"image": "i", "image": "j"}]}}}
  }`;

  it("keeps the last value in the first key's place, as Go's decoder leaves them", () => {
    const { value } = decode(body);
    expect(value.metadata).toEqual({ name: "b", labels: { x: "2" } });
    expect(Object.keys(value.metadata as object)).toEqual(["name", "labels"]);
  });

  it("reports their paths in document order: map keys after a dot, list items by index", () => {
    expect(decode(body).duplicates).toEqual([
      "metadata.labels.x",
      "metadata.name",
      "spec.template.spec.containers[1].image",
    ]);
  });

  it("records where each repeat sits among its object's keys", () => {
    const { value, duplicateKeys } = decode(body);
    expect(duplicateKeys.get(value.metadata as object)).toEqual([{ key: "name", after: 2 }]);
  });

  it("keeps a __proto__ key as data", () => {
    const { value } = decode('{"__proto__": {"polluted": true}}');
    expect(Object.keys(value)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  });
});

describe("decodeBody: strings and numbers", () => {
  it("joins surrogate pair escapes and replaces lone surrogates, as Go does", () => {
    expect(decode('{"a":"\\ud83d\\ude00 \\ud800 \\u00e9\\n"}').value.a).toBe("😀 \ufffd é\n");
  });

  it("reads UTF-8 text and numbers", () => {
    expect(decode('{"a":"日本","b":-1.5e3,"c":0}').value).toEqual({ a: "日本", b: -1500, c: 0 });
  });
});

describe("decodeBody: YAML", () => {
  it("reads YAML 1.1 scalars as go-yaml v2 does and sorts keys as kube's YAML-to-JSON step does", () => {
    const { value } = decode("z: yes\na: 0777\nm: 2024-01-01T00:00:00Z\nnone: ~\nf: 1.0\nn: 1\n", "application/yaml");
    // A bare `n` is false to go-yaml v2, keys included; kube's YAML-to-JSON step then spells it "false".
    expect(value).toEqual({ a: 511, f: 1, false: 1, m: "2024-01-01T00:00:00Z", none: null, z: true });
    expect(Object.keys(value)).toEqual(["a", "f", "false", "m", "none", "z"]);
  });

  it("reads only the first document", () => {
    expect(decode("a: 1\n---\nb: 2\n", "application/yaml").value).toEqual({ a: 1 });
  });

  it("reports repeated keys as go-yaml's strict mode does: inner ones first, at the line of the value", () => {
    const yaml = ["metadata:", "  name: a", "  name: b", "spec:", "  x: 1", "spec:", "  z: 1", "  z: 2", "  y: 3"].join(
      "\n",
    );
    const decoded = decode(yaml, "application/yaml");
    expect(decoded.yamlDuplicates).toEqual([
      'line 3: key "name" already set in map',
      'line 8: key "z" already set in map',
      'line 7: key "spec" already set in map',
    ]);
    expect(decoded.duplicates).toEqual([]);
    expect(decoded.value).toEqual({ metadata: { name: "b" }, spec: { true: 3, z: 2 } });
  });

  it("answers malformed YAML with go-yaml's message, quoting the body in hex", () => {
    // Checked against kube-apiserver v1.36.2: go-yaml names no line for a mistake on the first one.
    expect(failure("a: b: c", "application/yaml").message).toBe(
      "the object provided is unrecognized (must be of type Deployment): yaml: mapping values are not allowed in this context (613a20623a2063)",
    );
    expect(failure('a: "open', "application/yaml").message).toContain("yaml: found unexpected end of stream");
    expect(failure('\n\na: "open', "application/yaml").message).toContain(
      "yaml: line 3: found unexpected end of stream",
    );
  });

  it("refuses values JSON cannot hold", () => {
    expect(failure("a: .inf", "application/yaml").message).toContain(": json: unsupported value: +Inf (");
  });

  it("reads apiVersion and kind from the converted value like JSON's", () => {
    expect(failure("- a", "application/yaml").message).toContain(
      `couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type ${typeMetaStruct}`,
    );
  });
});
