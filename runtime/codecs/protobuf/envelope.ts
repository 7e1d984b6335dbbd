// kube's protobuf envelope: the four bytes `k8s\0`, then a runtime.Unknown message: typeMeta (1: apiVersion
// 1, kind 2), raw (2: the object's message), contentEncoding (3) and contentType (4). kube's serializer
// (Unknown.NestedMarshalTo) writes all four, the last two empty.
import { decodeMessage } from "./decode-message.js";
import { wirePlan } from "./json-plan.js";
import { protoMessage } from "./proto-root.js";
import { WireReader, wireTypes } from "./wire-reader.js";
import { WireWriter } from "./wire-writer.js";

export const protobufPrefix = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

export const PROTOBUF_MEDIA_TYPE = "application/vnd.kubernetes.protobuf";

export interface Envelope {
  apiVersion: string;
  kind: string;
  raw: Uint8Array;
}

/** Reads the envelope after the prefix; throws a ProtobufError for bytes gogo-protobuf would refuse. */
export function readEnvelope(body: Uint8Array): Envelope {
  const unknown = protoMessage("k8s.io.apimachinery.pkg.runtime.Unknown");
  if (unknown === undefined) throw new Error("generated/proto has no runtime.Unknown");
  const fields = decodeMessage(body.subarray(protobufPrefix.length), wirePlan(unknown), {}, new Map());
  const typeMeta = (fields.typeMeta ?? {}) as Record<string, unknown>;
  return {
    apiVersion: typeof typeMeta.apiVersion === "string" ? typeMeta.apiVersion : "",
    kind: typeof typeMeta.kind === "string" ? typeMeta.kind : "",
    raw: fields.raw instanceof Uint8Array ? fields.raw : new Uint8Array(0),
  };
}

const emptyContentFields = Buffer.from([0x1a, 0x00, 0x22, 0x00]);

/** A whole protobuf body: prefix, typeMeta, and `raw` given in parts (a list's items need no joining first). */
export function writeEnvelope(apiVersion: string, kind: string, raw: readonly Uint8Array[]): Buffer {
  return Buffer.concat(envelopePieces(apiVersion, kind, raw));
}

/** `writeEnvelope`'s body as the pieces it joins, for a body written out piece by piece. */
export function envelopePieces(apiVersion: string, kind: string, raw: readonly Uint8Array[]): Uint8Array[] {
  const w = new WireWriter(64 + apiVersion.length + kind.length);
  w.raw(protobufPrefix);
  w.tag(1, wireTypes.bytes);
  const start = w.begin();
  w.tag(1, wireTypes.bytes);
  w.string(apiVersion);
  w.tag(2, wireTypes.bytes);
  w.string(kind);
  w.end(start);
  w.tag(2, wireTypes.bytes);
  w.uint(raw.reduce((n, part) => n + part.length, 0));
  return [w.finish(), ...raw, emptyContentFields];
}

/** The `raw` bytes of a body `writeEnvelope` wrote, as a view into it. */
export function envelopeRaw(body: Uint8Array): Uint8Array {
  const reader = new WireReader(body, protobufPrefix.length);
  while (!reader.done) {
    const { field, wireType } = reader.tag("Unknown");
    if (field === 2 && wireType === wireTypes.bytes) return reader.delimited().rest();
    reader.skip(wireType);
  }
  return new Uint8Array(0);
}
