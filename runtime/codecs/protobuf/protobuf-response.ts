// Responses in application/vnd.kubernetes.protobuf, as kube-apiserver's protobuf serializer writes them: the
// envelope (envelope.ts) around the object's message. Lists are assembled from their items' messages, so an
// item serialized once (the watch cache keeps the bytes) is never encoded again. Watch streams use kube's
// stream serializer: each event a 4-byte big-endian length (LengthDelimitedFramer), then a bare
// meta.k8s.io/v1 WatchEvent message (no prefix, no envelope) whose object holds the object's whole body.
import { internal } from "../../errors/status-error.js";
import { encodeMessage } from "./encode-message.js";
import { envelopePieces, writeEnvelope } from "./envelope.js";
import type { MessagePlan } from "./json-plan.js";
import { groupVersion, objectPlan } from "./kind-messages.js";
import { wireTypes } from "./wire-reader.js";
import { WireWriter } from "./wire-writer.js";

const plans = new Map<string, MessagePlan | undefined>();

function planFor(apiVersion: string, kind: string): MessagePlan {
  const key = `${apiVersion}\0${kind}`;
  let plan = plans.get(key);
  if (plan === undefined && !plans.has(key)) {
    plan = objectPlan({ ...groupVersion(apiVersion), kind });
    plans.set(key, plan);
  }
  // kube's words for a type without protobuf methods (protobuf.errNotMarshalable); negotiation keeps them away.
  if (plan === undefined) {
    throw internal(
      `object ${kind} in version "${apiVersion}" does not implement the protobuf marshalling interface and cannot be encoded to a protobuf message`,
    );
  }
  return plan;
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** An object, list or Status as a protobuf body, written as the message its kind and apiVersion name. */
export function encodeProtobuf(value: Record<string, unknown>): Buffer {
  const apiVersion = text(value.apiVersion);
  const kind = text(value.kind);
  return writeEnvelope(apiVersion, kind, [encodeMessage(planFor(apiVersion, kind), value)]);
}

/** The key and length of a length-delimited field, to go before bytes written elsewhere. */
function fieldHeader(field: number, length: number): Buffer {
  const w = new WireWriter(16);
  w.tag(field, wireTypes.bytes);
  w.uint(length);
  return w.finish();
}

/**
 * A list body from its metadata and its items' messages (the `raw` of each item's own body), as the pieces
 * that make it up in order: a long list is written out piece by piece, never joined.
 */
export function protobufListPieces(
  apiVersion: string,
  listKind: string,
  metadata: Record<string, unknown>,
  items: readonly Uint8Array[],
): Uint8Array[] {
  const plan = planFor(apiVersion, listKind);
  const itemsField = [...plan.fields].find(([, f]) => f.shape === "list" && f.key === "items")?.[0] ?? 2;
  const parts: Uint8Array[] = [encodeMessage(plan, { metadata })];
  for (const item of items) parts.push(fieldHeader(itemsField, item.length), item);
  return envelopePieces(apiVersion, listKind, parts);
}

/** A list body from its metadata and its items' messages, joined. */
export function encodeProtobufList(
  apiVersion: string,
  listKind: string,
  metadata: Record<string, unknown>,
  items: readonly Uint8Array[],
): Buffer {
  return Buffer.concat(protobufListPieces(apiVersion, listKind, metadata, items));
}

/** WatchEvent's fields (type 1, object 2) and RawExtension's (raw 1), fixed in meta.k8s.io/v1 and runtime. */
const watchEventType = 1;
const watchEventObject = 2;
const rawExtensionRaw = 1;

/** One watch event of a protobuf stream: the frame's length, then WatchEvent{type, object: {raw: body}}. */
export function watchEventFrame(type: string, body: Uint8Array): Buffer {
  const inner = fieldHeader(rawExtensionRaw, body.length);
  const w = new WireWriter(32);
  w.tag(watchEventType, wireTypes.bytes);
  w.string(type);
  w.tag(watchEventObject, wireTypes.bytes);
  w.uint(inner.length + body.length);
  const head = w.finish();
  const length = Buffer.allocUnsafe(4);
  length.writeUInt32BE(head.length + inner.length + body.length, 0);
  return Buffer.concat([length, head, inner, body]);
}
