// A request body in application/vnd.kubernetes.protobuf, decoded into the JSON form the rest of kapi works
// on, as kube-apiserver's protobuf serializer reads it: the four bytes `k8s\0`, then a runtime.Unknown
// envelope whose typeMeta names the kind (defaulted from the endpoint's) and whose raw bytes are that
// kind's message. The result is what Go's encoding/json would write for the decoded struct; protobuf
// has no unknown or duplicate fields to report.

import type { GroupVersionKind } from "../decode-errors.js";
import type { BodyFailure, ParsedBody } from "../parsed-body.js";
import { decodeMessage, MessageTooDeep, type ZeroFields } from "./decode-message.js";
import { type Envelope, protobufPrefix as prefix, readEnvelope } from "./envelope.js";
import { groupVersion, kindMessage, objectPlan } from "./kind-messages.js";
import { ProtobufError } from "./wire-reader.js";
import { dropUnsetZeros } from "./zero-values.js";

/** The kind to decode as: the envelope's, completed from the endpoint's as kube's copyKindDefaults does. */
function actualKind(env: Envelope, target: GroupVersionKind | undefined): GroupVersionKind {
  let { group, version } = groupVersion(env.apiVersion);
  let kind = env.kind;
  if (target !== undefined) {
    if (kind === "") kind = target.kind;
    if (version === "" && target.version !== "") ({ group, version } = target);
  }
  return { group, version, kind };
}

/** Go's %#v of the envelope's runtime.TypeMeta, as kube's missing-kind errors print it. */
function typeMetaText(env: Envelope): string {
  return `runtime.TypeMeta{APIVersion:${JSON.stringify(env.apiVersion)}, Kind:${JSON.stringify(env.kind)}}`;
}

function decode(body: Buffer, target: GroupVersionKind | undefined): ParsedBody | BodyFailure {
  if (body.length === 0) return { error: "empty data" };
  if (body.length < prefix.length || !body.subarray(0, prefix.length).equals(prefix)) {
    return {
      error: `provided data does not appear to be a protobuf message, expected prefix [${[...prefix].join(" ")}]`,
    };
  }
  if (body.length === prefix.length) return { error: "empty body" };
  const env = readEnvelope(body);
  const actual = actualKind(env, target);
  // Without a kind there is nothing to name (only a body to an endpoint without one gets here).
  if (actual.kind === "") return { error: `Object 'Kind' is missing in '${typeMetaText(env)}'` };
  const claimed = { kind: actual.kind, version: actual.version };
  if (actual.version === "") return { error: `Object 'apiVersion' is missing in '${typeMetaText(env)}'`, claimed };
  const found = kindMessage(actual);
  if (found === undefined) {
    const gv = actual.group === "" ? actual.version : `${actual.group}/${actual.version}`;
    return { error: `no kind "${actual.kind}" is registered for version "${gv}"`, claimed };
  }
  const value: Record<string, unknown> = {};
  if (env.kind !== "") value.kind = env.kind;
  if (env.apiVersion !== "") value.apiVersion = env.apiVersion;
  const zeros: ZeroFields = new Map();
  try {
    decodeMessage(env.raw, found.plan, value, zeros);
  } catch (error) {
    // Nested deeper than kube can store: refused in the words kube's JSON reader fails with.
    if (error instanceof MessageTooDeep)
      return { error: "invalid character '{' exceeded max depth", convertedJson: true };
    if (error instanceof ProtobufError) return { error: error.message, claimed };
    throw error;
  }
  dropUnsetZeros(value, found.key, zeros);
  return { value, duplicates: [], duplicateKeys: new Map(), yamlDuplicates: [] };
}

/** Decodes a protobuf body; `target` is the kind of the endpoint, which fills in what the envelope leaves out. */
export function parseProtobuf(body: Buffer, target?: GroupVersionKind): ParsedBody | BodyFailure {
  try {
    return decode(body, target);
  } catch (error) {
    if (error instanceof ProtobufError) return { error: error.message };
    throw error;
  }
}

/**
 * A protobuf body as a Go client reads a response: the object (or list) the envelope names, every field on
 * the wire kept, zeros too. Throws a ProtobufError for bytes gogo-protobuf would refuse or a kind it does
 * not know.
 */
export function decodeProtobufObject(body: Uint8Array): Record<string, unknown> {
  if (body.length < prefix.length || !prefix.equals(body.subarray(0, prefix.length))) {
    throw new ProtobufError("provided data does not appear to be a protobuf message");
  }
  const env = readEnvelope(body);
  const plan = objectPlan({ ...groupVersion(env.apiVersion), kind: env.kind });
  if (plan === undefined)
    throw new ProtobufError(`no kind "${env.kind}" is registered for version "${env.apiVersion}"`);
  return decodeMessage(env.raw, plan, { kind: env.kind, apiVersion: env.apiVersion }, new Map());
}
