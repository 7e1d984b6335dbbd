// Writing a list in the format the client negotiated. JSON and protobuf lists are assembled from each item's
// shared serialization; compact JSON Tables and PartialObjectMetadataLists are converted and serialized a
// batch of items at a time. Either way the body is made and written in time slices (codecs/sliced-body.ts),
// so a list of thousands never holds the event loop; YAML and indented JSON are written whole.
import { encodeObject, escapeGoJson, writeEncoded } from "../codecs/encode-response.js";
import { jsonPiecesWithArray } from "../codecs/json-pieces.js";
import { toPartialObjectMetadata, toPartialObjectMetadataList } from "../codecs/partial-object-metadata.js";
import { envelopeRaw, PROTOBUF_MEDIA_TYPE } from "../codecs/protobuf/envelope.js";
import { protobufListPieces } from "../codecs/protobuf/protobuf-response.js";
import type { ResponseFormat } from "../codecs/response-format.js";
import { type SlicedBody, writeSliced } from "../codecs/sliced-body.js";
import { toTable } from "../codecs/table.js";
import type { KubeObject } from "../object/kube-object.js";
import { apiVersionOf } from "../registry/kinds.js";
import type { ServedKind } from "../registry/served-kind.js";
import type { ListResult } from "../resources/resource-api.js";
import { jsonAt, viewAt } from "../resources/versioned.js";
import type { RequestContext } from "../server/context.js";
import type { CachedObject } from "../watch-cache/cached-object.js";
import { headersFor, itemsKeepTypeMeta, listItem, listKindOf, protobufAt } from "./object-response.js";

/** Items converted and serialized together between two chances to pause. */
const BATCH = 64;
const comma = Buffer.from(",");
const nothing = new Uint8Array(0);

function listMeta(result: ListResult): Record<string, unknown> {
  return {
    resourceVersion: String(result.resourceVersion),
    ...(result.continue === undefined ? {} : { continue: result.continue }),
    ...(result.remainingItemCount === undefined ? {} : { remainingItemCount: result.remainingItemCount }),
  };
}

/** The JSON bytes of a cached object as a list item in `kind`'s version, made once and kept with the object. */
function listItemJsonAt(cached: CachedObject<KubeObject>, kind: ServedKind): Uint8Array {
  if (itemsKeepTypeMeta(kind)) return jsonAt(cached, kind);
  const key = `json-item:${apiVersionOf(kind)}`;
  let bytes = cached.encoded.get(key);
  if (bytes === undefined) {
    bytes = Buffer.from(escapeGoJson(JSON.stringify(listItem(kind, viewAt(cached, kind)))));
    cached.encoded.set(key, bytes);
  }
  return bytes;
}

function* batchesOf<T, R>(
  items: readonly T[],
  convert: (batch: readonly T[]) => readonly R[],
): Generator<readonly R[]> {
  for (let at = 0; at < items.length; at += BATCH) yield convert(items.slice(at, at + BATCH));
}

function* jsonListPieces(kind: ServedKind, metadata: Record<string, unknown>, result: ListResult) {
  yield Buffer.from(
    `{"kind":${JSON.stringify(listKindOf(kind))},"apiVersion":${JSON.stringify(apiVersionOf(kind))},"metadata":${JSON.stringify(metadata)},"items":[`,
  );
  for (let i = 0; i < result.items.length; i++) {
    if (i > 0) yield comma;
    yield listItemJsonAt((result.items[i] as ListResult["items"][number]).cached, kind);
  }
  yield Buffer.from("]}\n");
}

function* protobufListBody(kind: ServedKind, metadata: Record<string, unknown>, result: ListResult) {
  // The envelope states the list's length first, so every item is made (pausing between them) before any piece.
  const items: Uint8Array[] = [];
  for (const item of result.items) {
    items.push(envelopeRaw(protobufAt(item.cached, kind)));
    yield nothing;
  }
  yield* protobufListPieces(apiVersionOf(kind), listKindOf(kind), metadata, items);
}

/** The list as a body made in pieces, or undefined for the formats written whole. */
function slicedList(
  format: ResponseFormat,
  kind: ServedKind,
  metadata: Record<string, unknown>,
  result: ListResult,
): SlicedBody | undefined {
  if (format.kind === "json" && !format.pretty) {
    return { contentType: "application/json", pieces: jsonListPieces(kind, metadata, result) };
  }
  if (format.kind === "protobuf") {
    return { contentType: PROTOBUF_MEDIA_TYPE, pieces: protobufListBody(kind, metadata, result) };
  }
  const compactJson = "pretty" in format && !format.pretty && !("yaml" in format && format.yaml === true);
  if (!compactJson || result.items.length === 0) return undefined;
  const objects = result.items.map((item) => item.object);
  if (format.kind === "table") {
    const options = { includeObject: format.includeObject, version: format.version, now: Date.now() };
    const shell = toTable([], kind, { ...options, listMeta: metadata });
    const rows = (batch: readonly KubeObject[]) =>
      toTable(batch, kind, { ...options, noHeaders: true }).rows as Record<string, unknown>[];
    return { contentType: "application/json", pieces: jsonPiecesWithArray(shell, "rows", batchesOf(objects, rows)) };
  }
  if (format.kind === "partial-object-metadata" && format.protobuf !== true) {
    const shell = toPartialObjectMetadataList([], metadata, format.version);
    const items = (batch: readonly KubeObject[]) =>
      batch.map((object) => toPartialObjectMetadata(object, format.version));
    return { contentType: "application/json", pieces: jsonPiecesWithArray(shell, "items", batchesOf(objects, items)) };
  }
  return undefined;
}

export async function sendList(
  ctx: RequestContext,
  format: ResponseFormat,
  kind: ServedKind,
  result: ListResult,
): Promise<void> {
  const metadata = listMeta(result);
  const headers = headersFor(ctx.warnings);
  ctx.audit?.responseObject(() => ({
    kind: listKindOf(kind),
    apiVersion: apiVersionOf(kind),
    metadata,
    items: result.items.map((item) =>
      format.kind === "json" || format.kind === "protobuf"
        ? JSON.parse(Buffer.from(listItemJsonAt(item.cached, kind)).toString("utf8"))
        : listItem(kind, item.object),
    ),
  }));
  const compression = ctx.server.featureGates.enabled("APIResponseCompression");
  const sliced = slicedList(format, kind, metadata, result);
  if (sliced !== undefined) return writeSliced(ctx.req, ctx.res, 200, sliced, headers, compression);
  const objects = result.items.map((item) => item.object);
  let value: unknown;
  if (format.kind === "table") {
    value = toTable(objects, kind, {
      includeObject: format.includeObject,
      version: format.version,
      listMeta: metadata,
    });
  } else if (format.kind === "partial-object-metadata") {
    value = toPartialObjectMetadataList(objects, metadata, format.version);
  } else {
    value = {
      kind: listKindOf(kind),
      apiVersion: apiVersionOf(kind),
      metadata,
      items: objects.map((object) => listItem(kind, object)),
    };
  }
  writeEncoded(ctx.req, ctx.res, 200, encodeObject(format, value), headers, compression);
}
