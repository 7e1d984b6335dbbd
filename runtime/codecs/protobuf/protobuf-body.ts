// A request body in application/vnd.kubernetes.protobuf, decoded into the JSON form the rest of kapi works
// on, as kube-apiserver's protobuf serializer reads it: the four bytes `k8s\0`, then a runtime.Unknown
// envelope whose typeMeta names the kind (defaulted from the endpoint's) and whose raw bytes are that
// kind's message. The result is what Go's encoding/json would write for the decoded struct; protobuf
// has no unknown or duplicate fields to report.
import { validationKey } from "../../../generated/validation.js";
import type { BodyFailure } from "../decode-body.js";
import type { GroupVersionKind } from "../decode-errors.js";
import type { ParsedBody } from "../parsed-body.js";
import { kindFields } from "../unknown-fields.js";
import { decodeMessage, type ZeroFields } from "./decode-message.js";
import { jsonPlan, wirePlan } from "./json-plan.js";
import { protoMessage, protoPackage } from "./proto-root.js";
import { ProtobufError } from "./wire-reader.js";
import { dropUnsetZeros } from "./zero-values.js";

const prefix = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

/** Where kube's schemes register meta.k8s.io's kinds (DeleteOptions, …): in every group version too. */
const metaGroupVersion = { group: "meta.k8s.io", version: "v1", path: "meta/v1.proto" };

interface Envelope {
  apiVersion: string;
  kind: string;
  raw: Uint8Array;
}

function envelope(body: Buffer): Envelope {
  const unknown = protoMessage("k8s.io.apimachinery.pkg.runtime.Unknown");
  if (unknown === undefined) throw new Error("generated/proto has no runtime.Unknown");
  const fields = decodeMessage(body.subarray(prefix.length), wirePlan(unknown), {}, new Map());
  const typeMeta = (fields.typeMeta ?? {}) as Record<string, unknown>;
  return {
    apiVersion: typeof typeMeta.apiVersion === "string" ? typeMeta.apiVersion : "",
    kind: typeof typeMeta.kind === "string" ? typeMeta.kind : "",
    raw: fields.raw instanceof Uint8Array ? fields.raw : new Uint8Array(0),
  };
}

/** schema.ParseGroupVersion: a malformed apiVersion names no group or version. */
function groupVersion(apiVersion: string): { group: string; version: string } {
  const parts = apiVersion.split("/");
  if (parts.length === 1) return { group: "", version: apiVersion };
  if (parts.length === 2) return { group: parts[0] as string, version: parts[1] as string };
  return { group: "", version: "" };
}

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

/** The schema file of a group version: schemas/core/ holds the core group, schemas/<group>/ the others. */
function protoFile(group: string, version: string): string {
  return `${group === "" ? "core" : group}/${version}.proto`;
}

/** The message and field definition of a kind, looked up in its group version, then among meta's kinds. */
function kindMessage(gvk: GroupVersionKind) {
  const places = [
    { ...gvk, path: protoFile(gvk.group, gvk.version) },
    { ...metaGroupVersion, kind: gvk.kind },
  ];
  for (const p of places) {
    const pkg = protoPackage(p.path);
    const message = pkg === undefined ? undefined : protoMessage(`${pkg}.${p.kind}`);
    const fields = kindFields(p.group, p.version, p.kind);
    if (message !== undefined && fields !== undefined) {
      return { plan: jsonPlan(message, fields), key: validationKey(p.group, p.version, p.kind) };
    }
  }
  return undefined;
}

function decode(body: Buffer, target: GroupVersionKind | undefined): ParsedBody | BodyFailure {
  if (body.length === 0) return { error: "empty data" };
  if (body.length < prefix.length || !body.subarray(0, prefix.length).equals(prefix)) {
    return {
      error: `provided data does not appear to be a protobuf message, expected prefix [${[...prefix].join(" ")}]`,
    };
  }
  if (body.length === prefix.length) return { error: "empty body" };
  const env = envelope(body);
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
