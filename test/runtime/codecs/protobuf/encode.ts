// Protobuf request bodies as a Go client writes them, encoded with protobufjs's own encoder from the
// generated .proto files: the `k8s\0` prefix, a runtime.Unknown envelope, the raw message. Like
// gogo-protobuf, callers list zero-valued Go value fields explicitly.
import { protoMessage } from "../../../../runtime/codecs/protobuf/proto-root.js";

export const prefix = Buffer.from("k8s\0", "latin1");

/** One message's bytes; `value` uses the .proto field names. */
export function encodeMessage(type: string, value: Record<string, unknown>): Uint8Array {
  const message = protoMessage(type);
  if (message === undefined) throw new Error(`no message ${type}`);
  const problem = message.verify(value);
  if (problem !== null) throw new Error(`${type}: ${problem}`);
  return message.encode(message.fromObject(value)).finish();
}

/** A whole body: prefix, envelope naming `apiVersion` and `kind`, and `raw`. */
export function envelope(apiVersion: string, kind: string, raw: Uint8Array): Buffer {
  const unknown = encodeMessage("k8s.io.apimachinery.pkg.runtime.Unknown", { typeMeta: { apiVersion, kind }, raw });
  return Buffer.concat([prefix, unknown]);
}

/** A body holding `value` encoded as the message `type`. */
export function protobufBody(apiVersion: string, kind: string, type: string, value: Record<string, unknown>): Buffer {
  return envelope(apiVersion, kind, encodeMessage(type, value));
}
