// Serializing a response body in the negotiated format and writing it, gzipped as kube-apiserver does.
import type { IncomingMessage, ServerResponse } from "node:http";
import { constants, gzip } from "node:zlib";
import { toGoYaml } from "./go-yaml.js";
import { jsonText } from "./json-text.js";
import { PROTOBUF_MEDIA_TYPE } from "./protobuf/envelope.js";
import { encodeProtobuf } from "./protobuf/protobuf-response.js";
import { errorFormat, type ResponseFormat } from "./response-format.js";

export interface EncodedBody {
  contentType: string;
  body: Buffer;
}

/** Bodies above this many bytes are compressed when the client accepts gzip (responsewriters' threshold). */
export const GZIP_THRESHOLD_BYTES = 128 * 1024;

/** Go's encoding/json escapes <, >, & and the JavaScript line separators; they can only occur inside strings. */
export function escapeGoJson(json: string): string {
  return json.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${(c.codePointAt(0) ?? 0).toString(16).padStart(4, "0")}`);
}

/** Whether the format is written as protobuf: an object, a list or PartialObjectMetadata asked for so. */
export function isProtobuf(format: ResponseFormat): boolean {
  return format.kind === "protobuf" || (format.kind === "partial-object-metadata" && format.protobuf === true);
}

/**
 * JSON as json.Encoder writes it (compact, newline-terminated) or, when pretty, as json.MarshalIndent with two
 * spaces (no trailing newline); YAML as sigs.k8s.io/yaml writes it; protobuf as kube's protobuf serializer
 * writes the message the value's kind and apiVersion name.
 */
export function encodeObject(format: ResponseFormat, value: unknown): EncodedBody {
  if (isProtobuf(format)) {
    return { contentType: PROTOBUF_MEDIA_TYPE, body: encodeProtobuf(value as Record<string, unknown>) };
  }
  if (format.kind === "yaml" || ("yaml" in format && format.yaml === true)) {
    return { contentType: "application/yaml", body: Buffer.from(toGoYaml(value)) };
  }
  const text = "pretty" in format && format.pretty ? jsonText(value, true) : `${jsonText(value)}\n`;
  return { contentType: "application/json", body: Buffer.from(escapeGoJson(text)) };
}

/** An error's Status in the encoding the client's Accept header takes (see `errorFormat`). */
export function encodeStatus(accept: string | undefined, status: object): EncodedBody {
  return encodeObject(errorFormat(accept), status);
}

/** responsewriters' content-encoding check: a comma-separated token that is exactly `gzip`. */
export function acceptsGzip(req: IncomingMessage): boolean {
  const header = req.headers["accept-encoding"];
  const value = Array.isArray(header) ? header.join(",") : (header ?? "");
  return value.split(",").some((token) => token.trim() === "gzip");
}

/** The head of a complete body of `length` bytes, with gzip's Content-Encoding and Vary when `gzipped`. */
export function responseHeaders(
  contentType: string,
  length: number,
  gzipped: boolean,
  headers: Record<string, string | string[]> | undefined,
): Record<string, string | string[] | number> {
  const out: Record<string, string | string[] | number> = { ...headers, "Content-Type": contentType };
  if (gzipped) {
    out["Content-Encoding"] = "gzip";
    const vary = headers?.Vary;
    out.Vary = vary === undefined ? "Accept-Encoding" : [...(Array.isArray(vary) ? vary : [vary]), "Accept-Encoding"];
  }
  out["Content-Length"] = length;
  return out;
}

function send(
  res: ServerResponse,
  code: number,
  contentType: string,
  body: Buffer,
  gzipped: boolean,
  headers: Record<string, string | string[]> | undefined,
): void {
  res.writeHead(code, responseHeaders(contentType, body.length, gzipped, headers));
  res.end(body);
}

/**
 * Writes a complete body: compressed with gzip level 1 (off the event loop) when it is larger than the threshold
 * and the client accepts gzip, then with `Content-Encoding: gzip` and `Vary: Accept-Encoding`. `compression`
 * is the APIResponseCompression feature gate: off, nothing is compressed.
 */
export function writeEncoded(
  req: IncomingMessage,
  res: ServerResponse,
  code: number,
  encoded: EncodedBody,
  headers: Record<string, string | string[]> | undefined,
  compression: boolean,
): void {
  if (!compression || encoded.body.length <= GZIP_THRESHOLD_BYTES || !acceptsGzip(req)) {
    send(res, code, encoded.contentType, encoded.body, false, headers);
    return;
  }
  gzip(encoded.body, { level: constants.Z_BEST_SPEED }, (error, compressed) => {
    if (error) send(res, code, encoded.contentType, encoded.body, false, headers);
    else send(res, code, encoded.contentType, compressed, true, headers);
  });
}
