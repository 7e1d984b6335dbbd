// Writing a resource handler's answer in the format the client negotiated: JSON or protobuf straight from
// the cached serializations when nothing needs transforming, otherwise YAML, Table or PartialObjectMetadata
// built from the objects (lists: list-response.ts). Warnings from the write path travel as `Warning` headers.

import { encodeObject, writeEncoded } from "../codecs/encode-response.js";
import { toPartialObjectMetadata } from "../codecs/partial-object-metadata.js";
import { PROTOBUF_MEDIA_TYPE } from "../codecs/protobuf/envelope.js";
import { kindHasMessage } from "../codecs/protobuf/kind-messages.js";
import { encodeProtobuf } from "../codecs/protobuf/protobuf-response.js";
import { negotiateResponse, type ResponseFormat } from "../codecs/response-format.js";
import { toTable } from "../codecs/table.js";
import type { KubeObject } from "../object/kube-object.js";
import { apiVersionOf } from "../registry/kinds.js";
import type { ServedKind } from "../registry/served-kind.js";
import type { ReadItem } from "../resources/resource-api.js";
import { jsonAt, viewAt } from "../resources/versioned.js";
import type { RequestContext } from "../server/context.js";
import type { CachedObject } from "../watch-cache/cached-object.js";
import { warningHeaders } from "./warning-headers.js";

/** Kinds that can only be created (the reviews, bindings) have no Table convertor in kube-apiserver. */
function convertsToTable(kind: ServedKind): boolean {
  return kind.resource.verbs.some((verb) => verb !== "create");
}

export function responseFormat(
  ctx: RequestContext,
  target: { list: boolean; watch: boolean; kind?: ServedKind },
): ResponseFormat {
  const served = target.kind;
  const kind =
    served === undefined
      ? {}
      : {
          kind: { group: served.group, kind: served.kind },
          protobuf: () => kindHasMessage(served),
          tables: convertsToTable(served),
        };
  return negotiateResponse(
    ctx.req.headers.accept,
    ctx.url.searchParams,
    { list: target.list, watch: target.watch, ...kind },
    ctx.req.headers["user-agent"],
  );
}

/** The protobuf body of the cached object in `kind`'s version, made once and kept with the object. */
export function protobufAt(cached: CachedObject<KubeObject>, kind: ServedKind): Uint8Array {
  const key = `protobuf:${apiVersionOf(kind)}`;
  let bytes = cached.encoded.get(key);
  if (bytes === undefined) {
    bytes = encodeProtobuf(viewAt(cached, kind));
    cached.encoded.set(key, bytes);
  }
  return bytes;
}

const newline = Buffer.from("\n");

export function headersFor(warnings: readonly string[] | undefined): Record<string, string[]> {
  return warnings === undefined || warnings.length === 0 ? {} : { Warning: warningHeaders(warnings) };
}

/** The value a single object is sent as in `format` (a Status is sent as itself whatever was asked). */
export function transformObject(
  format: ResponseFormat,
  kind: ServedKind,
  object: KubeObject,
  noHeaders = false,
): unknown {
  if (object.kind === "Status") return object;
  if (format.kind === "table") {
    return toTable([object], kind, { includeObject: format.includeObject, version: format.version, noHeaders });
  }
  if (format.kind === "partial-object-metadata") return toPartialObjectMetadata(object, format.version);
  return object;
}

export function sendObject(
  ctx: RequestContext,
  format: ResponseFormat,
  code: number,
  kind: ServedKind,
  object: KubeObject,
  options: { warnings?: readonly string[]; item?: ReadItem } = {},
): void {
  const headers = headersFor([...(ctx.warnings ?? []), ...(options.warnings ?? [])]);
  ctx.audit?.responseObject(
    () =>
      options.item !== undefined && (format.kind === "json" || format.kind === "protobuf")
        ? JSON.parse(Buffer.from(jsonAt(options.item.cached, kind)).toString("utf8"))
        : transformObject(format, kind, object),
    object.kind === "Status" ? object : undefined,
  );
  if (format.kind === "json" && !format.pretty && options.item !== undefined) {
    const body = Buffer.concat([jsonAt(options.item.cached, kind), newline]);
    writeEncoded(
      ctx.req,
      ctx.res,
      code,
      { contentType: "application/json", body },
      headers,
      ctx.server.featureGates.enabled("APIResponseCompression"),
    );
    return;
  }
  if (format.kind === "protobuf" && options.item !== undefined) {
    const bytes = protobufAt(options.item.cached, kind);
    const body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
    writeEncoded(
      ctx.req,
      ctx.res,
      code,
      { contentType: PROTOBUF_MEDIA_TYPE, body },
      headers,
      ctx.server.featureGates.enabled("APIResponseCompression"),
    );
    return;
  }
  writeEncoded(
    ctx.req,
    ctx.res,
    code,
    encodeObject(format, transformObject(format, kind, object)),
    headers,
    ctx.server.featureGates.enabled("APIResponseCompression"),
  );
}

/**
 * kube's list encoders write a built-in kind's items without kind and apiVersion (typed items carry no TypeMeta);
 * a custom resource's items are unstructured and keep theirs.
 */
export function itemsKeepTypeMeta(kind: ServedKind): boolean {
  return kind.custom !== undefined;
}

export function listItem(kind: ServedKind, object: KubeObject): KubeObject {
  if (itemsKeepTypeMeta(kind)) return object;
  const { kind: _kind, apiVersion: _apiVersion, ...rest } = object;
  return rest as KubeObject;
}

export function listKindOf(kind: ServedKind): string {
  return kind.listKind ?? `${kind.kind}List`;
}
