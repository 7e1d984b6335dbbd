// The first step of every write: the Content-Type picks a decoder (415 when there is none, a missing
// header meaning JSON, as kube's input negotiation treats it), the body is parsed, and its apiVersion and
// kind are read the way kube's serializer reads them before anything else (json.SimpleMetaFactory), which
// refuses a body that is not an object. Failures are the 400s kube's handlers send, worded the same way.
// Protobuf bodies are decoded into the same JSON form (protobuf/protobuf-body.ts).
import { badRequest, unsupportedMediaType } from "../errors/status-error.js";
import {
  bodyGvk,
  cannotBeHandled,
  type GroupVersionKind,
  jsonKind,
  typeMetaPrefix,
  unrecognizedBody,
} from "./decode-errors.js";
import { parseJson } from "./json-body.js";
import type { BodyFailure, DuplicateKeys, ParsedBody } from "./parsed-body.js";
import { parseProtobuf } from "./protobuf/protobuf-body.js";
import { parseYaml } from "./yaml-body.js";

export interface DecodedBody {
  /** The object; a `null` body decodes into an empty one, as into a Go struct. */
  value: Record<string, unknown>;
  /** Paths of repeated keys (`metadata.name`), in document order; JSON bodies only, as in kube. */
  duplicates: string[];
  /** YAML bodies: repeated keys as kube's YAML reader reports them, `line 5: key "name" already set in map`. */
  yamlDuplicates: string[];
  /** The repeated keys by object, for reporting them in document order (unknown-fields.ts). */
  duplicateKeys: DuplicateKeys;
  /** What the body names itself, defaulted from the target; the body's own words when there is no target. */
  gvk: GroupVersionKind;
}

interface BodyDecoder {
  /** `target` fills in what a self-describing body (protobuf) leaves out of its kind. */
  parse(body: Buffer, target: GroupVersionKind | undefined): ParsedBody | BodyFailure;
  /** How kube words a body this parser refuses. */
  reason(error: string): string;
}

/** Decoders by media type, in the order kube lists accepted types. */
const decoders = new Map<string, BodyDecoder>([
  // kube first reads a JSON body looking for its kind, so syntax errors carry that step's words.
  ["application/json", { parse: parseJson, reason: (error) => `${typeMetaPrefix}${error}` }],
  // A YAML body is converted to JSON before that, and a failure there is reported as it is.
  ["application/yaml", { parse: parseYaml, reason: (error) => error }],
  ["application/vnd.kubernetes.protobuf", { parse: parseProtobuf, reason: (error) => error }],
]);

/** The media types request bodies may have; kinds without a protobuf form (custom resources) take JSON and YAML only. */
export function acceptedBodyTypes(protobuf = true): string[] {
  return [...decoders.keys()].filter((type) => protobuf || !type.includes("protobuf"));
}

/** mime.ParseMediaType's type: lower-cased, parameters dropped; undefined when it is not `type/subtype`. */
function mediaType(contentType: string): string | undefined {
  const type = (contentType.split(";")[0] ?? "").trim().toLowerCase();
  return /^[!#$%&'*+\-.^_`|~0-9a-z]+\/[!#$%&'*+\-.^_`|~0-9a-z]+$/.test(type) ? type : undefined;
}

/** The struct kube reads apiVersion and kind into, as encoding/json names its type in errors. */
const typeMetaStruct =
  'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

/** Why kube's SimpleMetaFactory.Interpret refuses the value, if it does. */
function typeMetaError(value: unknown): string | undefined {
  if (value === null) return undefined;
  if (typeof value !== "object" || Array.isArray(value)) {
    return `json: cannot unmarshal ${jsonKind(value)} into Go value of type ${typeMetaStruct}`;
  }
  const obj = value as Record<string, unknown>;
  for (const key of Object.keys(obj)) {
    const v = obj[key];
    if ((key === "apiVersion" || key === "kind") && v !== null && typeof v !== "string") {
      return `json: cannot unmarshal ${jsonKind(v)} into Go struct field .${key} of type string`;
    }
  }
  return undefined;
}

/**
 * Decodes a write's body. `target` is the kind the endpoint decodes into: it fills in what the body leaves
 * out of its apiVersion and kind, and is named in errors as kube names it (`the object provided is
 * unrecognized (must be of type Deployment): couldn't get version/kind; json parse error: …`); without it
 * the 400 carries the decoder's reason alone.
 */
export function decodeBody(
  contentType: string | undefined,
  body: Buffer,
  target?: GroupVersionKind,
  protobuf = true,
): DecodedBody {
  const type = contentType === undefined || contentType === "" ? "application/json" : mediaType(contentType);
  const accepted = acceptedBodyTypes(protobuf);
  const decoder = type === undefined || !accepted.includes(type) ? undefined : decoders.get(type);
  if (decoder === undefined) throw unsupportedMediaType(accepted);
  const fail = (reason: string) =>
    target === undefined ? badRequest(reason) : unrecognizedBody(target.kind, reason, body);
  const parsed = decoder.parse(body, target);
  if ("error" in parsed) {
    // Converted YAML nesting too deep fails where kube reads the JSON's kind.
    const reason = parsed.convertedJson ? `${typeMetaPrefix}${parsed.error}` : decoder.reason(parsed.error);
    if (parsed.claimed !== undefined && target !== undefined) {
      throw cannotBeHandled({ ...parsed.claimed, into: target.kind }, reason);
    }
    throw fail(reason);
  }
  const metaError = typeMetaError(parsed.value);
  if (metaError !== undefined) throw fail(`${typeMetaPrefix}${metaError}`);
  const value = (parsed.value ?? {}) as Record<string, unknown>;
  const apiVersion = typeof value.apiVersion === "string" ? value.apiVersion : "";
  if ((apiVersion.match(/\//g) ?? []).length > 1) throw fail(`unexpected GroupVersion string: ${apiVersion}`);
  return {
    value,
    duplicates: parsed.duplicates,
    yamlDuplicates: parsed.yamlDuplicates,
    duplicateKeys: parsed.duplicateKeys,
    gvk: bodyGvk(value, target ?? { group: "", version: "", kind: "" }),
  };
}
