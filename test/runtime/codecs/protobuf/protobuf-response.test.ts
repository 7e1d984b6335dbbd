// Protobuf responses byte for byte as gogo-protobuf writes them, and read back by protobufjs (a decoder
// independent of kapi's) from the generated .proto files.
import { describe, expect, it } from "vitest";
import { encodeObject, encodeStatus } from "../../../../runtime/codecs/encode-response.js";
import { envelopeRaw, readEnvelope } from "../../../../runtime/codecs/protobuf/envelope.js";
import { protoMessage } from "../../../../runtime/codecs/protobuf/proto-root.js";
import { encodeProtobuf, watchEventFrame } from "../../../../runtime/codecs/protobuf/protobuf-response.js";
import { StatusError } from "../../../../runtime/errors/status-error.js";

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
const text = (s: string) => Buffer.from(s).toString("hex");

function protobufjs(type: string, bytes: Uint8Array): Record<string, unknown> {
  const message = protoMessage(type);
  if (message === undefined) throw new Error(`no ${type}`);
  return message.toObject(message.decode(bytes), { longs: Number, bytes: String }) as Record<string, unknown>;
}

describe("the protobuf envelope", () => {
  const configMap = {
    kind: "ConfigMap",
    apiVersion: "v1",
    metadata: { name: "c", creationTimestamp: "1970-01-01T00:00:10Z" },
    data: { b: "2", a: "1" },
  };

  it("is k8s\\0, then Unknown{typeMeta, raw, contentEncoding, contentType} as kube writes it", () => {
    const typeMeta = `0a02${text("v1")}1209${text("ConfigMap")}`;
    // ObjectMeta: name (1), creationTimestamp (8) as Timestamp{seconds 10, nanos 0}; data entries sorted by key.
    const raw =
      `0a090a01${text("c")}4204080a1000` +
      `12060a01${text("a")}1201${text("1")}` +
      `12060a01${text("b")}1201${text("2")}`;
    expect(hex(encodeProtobuf(configMap))).toBe(`6b3873000a0f${typeMeta}121b${raw}1a002200`);
  });

  it("reads back with protobufjs, and its raw bytes are found again in the body", () => {
    const body = encodeProtobuf(configMap);
    expect(readEnvelope(body)).toMatchObject({ apiVersion: "v1", kind: "ConfigMap" });
    expect(protobufjs("k8s.io.api.core.v1.ConfigMap", envelopeRaw(body))).toEqual({
      metadata: { name: "c", creationTimestamp: { seconds: 10, nanos: 0 } },
      data: { a: "1", b: "2" },
    });
  });
});

describe("wire forms and values", () => {
  const raw = (value: Record<string, unknown>) => envelopeRaw(encodeProtobuf(value));

  it("writes IntOrString with all three fields, as a Go value holds them", () => {
    const port = (targetPort: unknown) =>
      raw({ kind: "Service", apiVersion: "v1", spec: { ports: [{ port: 80, targetPort }] } });
    // Service.spec (2) → ServiceSpec.ports (1) → ServicePort{port (3), targetPort (4)}.
    expect(hex(port(8080))).toBe("120d0a0b18502207080010903f1a00");
    expect(hex(port("http"))).toBe(`12100a0e1850220a080110001a04${text("http")}`);
  });

  it("writes negative integers as ten-byte varints and lengths above 127 as longer varints", () => {
    const long = "x".repeat(300);
    const pod = { kind: "Pod", apiVersion: "v1", metadata: { name: long }, spec: { priority: -1 } };
    const decoded = protobufjs("k8s.io.api.core.v1.Pod", raw(pod));
    expect(decoded).toEqual({ metadata: { name: long }, spec: { priority: -1 } });
    expect(hex(raw(pod))).toContain("c801ffffffffffffffffff01");
  });

  it("writes times, quantities, raw JSON, bytes and pointers left out", () => {
    const value = {
      kind: "Secret",
      apiVersion: "v1",
      metadata: {
        name: "s",
        deletionTimestamp: "2026-01-02T03:04:05Z",
        managedFields: [{ manager: "m", fieldsType: "FieldsV1", fieldsV1: { "f:data": {} } }],
      },
      data: { k: Buffer.from("v").toString("base64"), empty: "" },
    };
    expect(protobufjs("k8s.io.api.core.v1.Secret", raw(value))).toEqual({
      metadata: {
        name: "s",
        deletionTimestamp: { seconds: Date.parse("2026-01-02T03:04:05Z") / 1000, nanos: 0 },
        managedFields: [
          { manager: "m", fieldsType: "FieldsV1", fieldsV1: { Raw: Buffer.from('{"f:data":{}}').toString("base64") } },
        ],
      },
      data: { empty: "", k: "dg==" },
    });
    const event = {
      kind: "Event",
      apiVersion: "events.k8s.io/v1",
      metadata: { name: "e" },
      eventTime: "2026-01-02T03:04:05.123456Z",
    };
    expect(protobufjs("k8s.io.api.events.v1.Event", raw(event)).eventTime).toEqual({
      seconds: Date.parse("2026-01-02T03:04:05Z") / 1000,
      nanos: 123456000,
    });
    const quota = { kind: "ResourceQuota", apiVersion: "v1", spec: { hard: { cpu: "100m", pods: "10" } } };
    expect(protobufjs("k8s.io.api.core.v1.ResourceQuota", raw(quota))).toEqual({
      spec: { hard: { cpu: { string: "100m" }, pods: { string: "10" } } },
    });
  });

  it("sorts map keys in Go's byte order", () => {
    const cm = { kind: "ConfigMap", apiVersion: "v1", data: { "\u{1F600}": "1", "\uFFFD": "2", B: "3", a: "4" } };
    const keys = Object.keys(protobufjs("k8s.io.api.core.v1.ConfigMap", raw(cm)).data as object);
    expect(keys).toEqual(["B", "a", "\uFFFD", "\u{1F600}"]);
  });

  it("refuses a kind without a protobuf message with kube's words", () => {
    const table = { kind: "Table", apiVersion: "meta.k8s.io/v1", rows: [] };
    expect(() => encodeProtobuf(table)).toThrow(StatusError);
    expect(() => encodeProtobuf(table)).toThrow(
      'object Table in version "meta.k8s.io/v1" does not implement the protobuf marshalling interface',
    );
  });
});

describe("watch frames", () => {
  it("are a 4-byte big-endian length and a bare WatchEvent whose object holds the whole body", () => {
    const body = encodeProtobuf({ kind: "Namespace", apiVersion: "v1", metadata: { name: "n" } });
    const frame = watchEventFrame("ADDED", body);
    expect(frame.readUInt32BE(0)).toBe(frame.length - 4);
    const event = protobufjs("k8s.io.apimachinery.pkg.apis.meta.v1.WatchEvent", frame.subarray(4));
    expect(event.type).toBe("ADDED");
    expect(Buffer.from((event.object as { raw: string }).raw, "base64").equals(body)).toBe(true);
  });
});

describe("Status errors", () => {
  const status = {
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Failure",
    message: "nope",
    reason: "NotFound",
    code: 404,
  };

  it("are protobuf when the client takes protobuf first, JSON or YAML otherwise", () => {
    const pb = encodeStatus("application/vnd.kubernetes.protobuf, application/json", status);
    expect(pb.contentType).toBe("application/vnd.kubernetes.protobuf");
    expect(protobufjs("k8s.io.apimachinery.pkg.apis.meta.v1.Status", envelopeRaw(pb.body))).toEqual({
      metadata: {},
      status: "Failure",
      message: "nope",
      reason: "NotFound",
      code: 404,
    });
    expect(readEnvelope(pb.body)).toMatchObject({ apiVersion: "v1", kind: "Status" });
    expect(encodeStatus("application/json, application/vnd.kubernetes.protobuf", status).contentType).toBe(
      "application/json",
    );
    expect(encodeStatus("application/yaml", status).contentType).toBe("application/yaml");
    expect(encodeStatus(undefined, status).contentType).toBe("application/json");
  });

  it("fall back to JSON when nothing in Accept is taken without a transformation", () => {
    const tableOnly = "application/vnd.kubernetes.protobuf;as=Table;g=meta.k8s.io;v=v1";
    expect(encodeStatus(tableOnly, status).contentType).toBe("application/json");
    expect(encodeStatus("text/html", status).contentType).toBe("application/json");
  });

  it("PartialObjectMetadata is written as meta.k8s.io's message", () => {
    const format = { kind: "partial-object-metadata", version: "v1", pretty: false, protobuf: true } as const;
    const pom = { kind: "PartialObjectMetadata", apiVersion: "meta.k8s.io/v1", metadata: { name: "x" } };
    const encoded = encodeObject(format, pom);
    expect(encoded.contentType).toBe("application/vnd.kubernetes.protobuf");
    expect(readEnvelope(encoded.body)).toMatchObject({ apiVersion: "meta.k8s.io/v1", kind: "PartialObjectMetadata" });
  });
});
