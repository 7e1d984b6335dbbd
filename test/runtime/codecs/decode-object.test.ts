// The bodies and expectations of kube-apiserver's own field validation integration test (POST of a
// Deployment, JSON and YAML), plus the cases where a fatal error wins.
import { describe, expect, it } from "vitest";
import { decodeObject } from "../../../runtime/codecs/decode-object.js";
import type { FieldValidation } from "../../../runtime/codecs/field-validation.js";
import { StatusError } from "../../../runtime/errors/status-error.js";

const deployments = { group: "apps", version: "v1", kind: "Deployment" };

const invalidJson = `{
  "apiVersion": "apps/v1",
  "kind": "Deployment",
  "metadata": {
    "name": "dupename",
    "name": "test-deployment",
    "unknownMeta": "metaVal",
    "labels": {"app": "nginx"}
  },
  "spec": {
    "unknown1": "val1",
    "unknownDupe": "valDupe",
    "unknownDupe": "valDupe2",
    "paused": true,
    "paused": false,
    "selector": {"matchLabels": {"app": "nginx"}},
    "template": {
      "metadata": {"labels": {"app": "nginx"}},
      "spec": {
        "containers": [{
          "name": "nginx",
          "image": "nginx:latest",
          "unknownNested": "val1",
          "imagePullPolicy": "Always",
          "imagePullPolicy": "Never"
        }]
      }
    }
  }
}`;

const invalidYaml = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: dupename
  name: test-deployment
  unknownMeta: metaVal
  labels:
    app: nginx
spec:
  unknown1: val1
  unknownDupe: valDupe
  unknownDupe: valDupe2
  paused: true
  paused: false
  selector:
    matchLabels:
      app: nginx
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
      - name: nginx
        image: nginx:latest
        unknownNested: val1
        imagePullPolicy: Always
        imagePullPolicy: Never`;

function decode(body: string, level: FieldValidation, contentType?: string) {
  return decodeObject(contentType, Buffer.from(body), level, deployments);
}

function failure(body: string, level: FieldValidation, contentType?: string): { code: number; message: string } {
  try {
    decode(body, level, contentType);
  } catch (e) {
    if (e instanceof StatusError) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error("decoded without error");
}

describe("decodeObject with kube's field validation test bodies", () => {
  it("Warn on JSON: one warning per problem, in document order; duplicated unknown fields only as unknown", () => {
    expect(decode(invalidJson, "Warn").warnings).toEqual([
      'duplicate field "metadata.name"',
      'unknown field "metadata.unknownMeta"',
      'unknown field "spec.unknown1"',
      'unknown field "spec.unknownDupe"',
      'duplicate field "spec.paused"',
      'unknown field "spec.template.spec.containers[0].unknownNested"',
      'duplicate field "spec.template.spec.containers[0].imagePullPolicy"',
    ]);
  });

  it("Strict on JSON: a 400 listing them all", () => {
    expect(failure(invalidJson, "Strict")).toEqual({
      code: 400,
      message:
        'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: duplicate field "metadata.name", unknown field "metadata.unknownMeta", unknown field "spec.unknown1", unknown field "spec.unknownDupe", duplicate field "spec.paused", unknown field "spec.template.spec.containers[0].unknownNested", duplicate field "spec.template.spec.containers[0].imagePullPolicy"',
    });
  });

  it("Ignore on JSON: no warnings, unknown fields dropped, the last duplicate kept", () => {
    const { object, warnings } = decode(invalidJson, "Ignore");
    expect(warnings).toEqual([]);
    expect(object.metadata).toEqual({ name: "test-deployment", labels: { app: "nginx" } });
    expect(object.spec).toMatchObject({ paused: false });
    expect(object.spec).not.toHaveProperty("unknown1");
  });

  it("Warn on YAML: the YAML reader's repeats first, then unknown fields in sorted-key order", () => {
    expect(decode(invalidYaml, "Warn", "application/yaml").warnings).toEqual([
      'line 5: key "name" already set in map',
      'line 12: key "unknownDupe" already set in map',
      'line 14: key "paused" already set in map',
      'line 28: key "imagePullPolicy" already set in map',
      'unknown field "metadata.unknownMeta"',
      'unknown field "spec.template.spec.containers[0].unknownNested"',
      'unknown field "spec.unknown1"',
      'unknown field "spec.unknownDupe"',
    ]);
  });

  it("Strict on YAML: the YAML report as one problem, then the unknown fields", () => {
    expect(failure(invalidYaml, "Strict", "application/yaml").message).toBe(
      'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: yaml: unmarshal errors:\n  line 5: key "name" already set in map\n  line 12: key "unknownDupe" already set in map\n  line 14: key "paused" already set in map\n  line 28: key "imagePullPolicy" already set in map, unknown field "metadata.unknownMeta", unknown field "spec.template.spec.containers[0].unknownNested", unknown field "spec.unknown1", unknown field "spec.unknownDupe"',
    );
  });
});

describe("decodeObject: the first fatal error wins", () => {
  const wrongType = '{"bogus": 1, "metadata": {"name": "a", "name": "b"}, "spec": {"replicas": "3"}}';
  const typeError =
    'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32';

  it.each(["Ignore", "Warn", "Strict"] as const)(
    "a wrongly typed value is a 400 without strict details under %s",
    (level) => {
      expect(failure(wrongType, level)).toEqual({ code: 400, message: typeError });
    },
  );

  it("a malformed body is a 400 at every level", () => {
    for (const level of ["Ignore", "Warn", "Strict"] as const) {
      expect(failure('{"spec": {"bogus": 1}', level).message).toContain("unexpected end of JSON input");
    }
  });
});

describe("decodeObject: where kube's typed decoder does not look", () => {
  const warnings = (body: string, group: string, kind: string) =>
    decodeObject(undefined, Buffer.from(body), "Warn", { group, version: "v1", kind }).warnings;

  it("reports no repeats inside an unknown field or a free-form value", () => {
    const body = '{"metadata": {"name": "r"}, "bogus": {"a": 1, "a": 2}, "data": {"b": 1, "b": 2}, "revision": 1}';
    expect(warnings(body, "apps", "ControllerRevision")).toEqual(['unknown field "bogus"']);
  });

  it("keeps the last of repeated keys inside a free-form value", () => {
    const body = '{"data": {"b": 1, "b": 2}}';
    const revisions = { group: "apps", version: "v1", kind: "ControllerRevision" };
    expect(decodeObject(undefined, Buffer.from(body), "Strict", revisions).object.data).toEqual({ b: 2 });
  });

  it("reports repeated map keys", () => {
    expect(warnings('{"metadata": {"name": "c"}, "data": {"k": "1", "k": "2"}}', "", "ConfigMap")).toEqual([
      'duplicate field "data.k"',
    ]);
  });

  it("decodes a subresource's kind", () => {
    expect(warnings('{"spec": {"replicas": 3, "replica": 1}}', "autoscaling", "Scale")).toEqual([
      'unknown field "spec.replica"',
    ]);
  });
});
