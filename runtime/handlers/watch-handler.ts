// watch: a chunked stream of `{"type":…,"object":…}` lines, or for protobuf clients of length-prefixed
// WatchEvent frames (protobuf-response.ts). Each event's object bytes come from the cached object's shared
// serialization, so a change fanned out to many watchers is encoded once per encoding. A start revision that
// left the history window is answered as kube does: 200 and one ERROR event with a 410.
//
// A watch ends when its time is up (timeoutSeconds, or a random time between --min-request-timeout and twice
// it), when the server begins to shut down, when its client goes, and when the cache terminates it for falling
// a buffer behind. It never writes into a backed-up socket, so at most one frame waits beyond the socket's
// high-water mark; a client that stops reading is disconnected once the cache terminates its watch.
import type { ServerResponse } from "node:http";
import { encodeObject, escapeGoJson, isProtobuf } from "../codecs/encode-response.js";
import { PROTOBUF_MEDIA_TYPE } from "../codecs/protobuf/envelope.js";
import { encodeProtobuf, watchEventFrame } from "../codecs/protobuf/protobuf-response.js";
import type { ResponseFormat } from "../codecs/response-format.js";
import { TimeSlice } from "../codecs/sliced-body.js";
import { StatusError } from "../errors/status-error.js";
import { requestMetrics } from "../metrics/request-metrics.js";
import type { KubeObject } from "../object/kube-object.js";
import { apiVersionOf } from "../registry/kinds.js";
import type { ServedKind } from "../registry/served-kind.js";
import { parseWatchQuery } from "../resources/list-options.js";
import type { Target } from "../resources/resource-api.js";
import { jsonAt, prepareViews, viewAt } from "../resources/versioned.js";
import type { RequestContext } from "../server/context.js";
import type { CacheEvent } from "../watch-cache/cache-watch.js";
import type { CachedObject } from "../watch-cache/cached-object.js";
import { headersFor, protobufAt, responseFormat, transformObject } from "./object-response.js";

/** How long the bytes of an ended watch may take to reach a client that has stopped reading. */
const endFlushGraceMs = 5_000;
/** The longest delay a Node timer takes (about 24.8 days); a watch meant to outlast it is not timed. */
const longestTimerMs = 2 ** 31 - 1;
const encoder = new TextEncoder();

type Encoding = "json" | "protobuf";

/** A deleted object is shown with the deletion's revision, as kube's watch cache does. */
function deletedBytes(
  cached: CachedObject<KubeObject>,
  kind: ServedKind,
  revision: number,
  encoding: Encoding,
): Uint8Array {
  const key = `${encoding}:${kind.version}:deleted`;
  let bytes = cached.encoded.get(key);
  if (bytes === undefined) {
    const view = viewAt(cached, kind);
    const copy = { ...view, metadata: { ...(view.metadata as object), resourceVersion: String(revision) } };
    bytes = encoding === "json" ? encoder.encode(escapeGoJson(JSON.stringify(copy))) : encodeProtobuf(copy);
    cached.encoded.set(key, bytes);
  }
  return bytes;
}

/** The event's object in the served version, shared: the deleted state carries the deletion's revision. */
function objectBytes(
  event: Exclude<CacheEvent<KubeObject>, { type: "BOOKMARK" }>,
  kind: ServedKind,
  encoding: Encoding,
) {
  if (event.type === "DELETED") return deletedBytes(event.object, kind, event.resourceVersion, encoding);
  return encoding === "json" ? jsonAt(event.object, kind) : protobufAt(event.object, kind);
}

function bookmarkObject(kind: ServedKind, revision: number, initialEventsEnd: boolean): KubeObject {
  return {
    kind: kind.kind,
    apiVersion: apiVersionOf(kind),
    metadata: {
      resourceVersion: String(revision),
      ...(initialEventsEnd ? { annotations: { "k8s.io/initial-events-end": "true" } } : {}),
    },
  };
}

function frame(format: ResponseFormat, kind: ServedKind, event: CacheEvent<KubeObject>, first: boolean): Buffer {
  const protobuf = isProtobuf(format);
  if (event.type === "BOOKMARK") {
    const object = bookmarkObject(kind, event.resourceVersion, event.initialEventsEnd);
    if (format.kind === "table" || format.kind === "partial-object-metadata") {
      // Transformed like any event's object: a Table of one row over the bookmark, as kube-apiserver sends it.
      const transformed = transformObject(format, kind, object, !first);
      if (protobuf) return watchEventFrame("BOOKMARK", encodeObject(format, transformed).body);
      return encodeObject({ kind: "json", pretty: false }, { type: "BOOKMARK", object: transformed }).body;
    }
    if (protobuf) return watchEventFrame("BOOKMARK", encodeProtobuf(object));
    return Buffer.from(`{"type":"BOOKMARK","object":${JSON.stringify(object)}}\n`);
  }
  if (format.kind === "protobuf") return watchEventFrame(event.type, objectBytes(event, kind, "protobuf"));
  if (format.kind === "json" && !format.pretty) {
    const object = objectBytes(event, kind, "json");
    return Buffer.concat([Buffer.from(`{"type":"${event.type}","object":`), object, Buffer.from("}\n")]);
  }
  let object = viewAt(event.object, kind);
  if (event.type === "DELETED") {
    object = {
      ...object,
      metadata: { ...(object.metadata as object), resourceVersion: String(event.resourceVersion) },
    };
  }
  // Table events after the first carry rows only, as kube-apiserver sends them.
  const transformed = transformObject(format, kind, object, !first);
  if (protobuf) return watchEventFrame(event.type, encodeObject(format, transformed).body);
  return encodeObject({ kind: "json", pretty: false }, { type: event.type, object: transformed }).body;
}

/**
 * Writes one frame; when the socket is backed up, waits for it to drain. Resolves false when the watch ended
 * or the client went before it drained.
 */
function write(res: ServerResponse, chunk: Buffer, ended: AbortSignal): Promise<boolean> {
  if (res.write(chunk)) return Promise.resolve(true);
  if (ended.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const settle = (drained: boolean) => () => {
      res.off("drain", onDrain);
      res.off("close", onGone);
      ended.removeEventListener("abort", onGone);
      resolve(drained);
    };
    const onDrain = settle(true);
    const onGone = settle(false);
    res.on("drain", onDrain);
    res.on("close", onGone);
    ended.addEventListener("abort", onGone);
  });
}

/**
 * The watch's lifetime in milliseconds, as kube reckons it: timeoutSeconds as a Go time.Duration (whose
 * nanoseconds wrap past int64, so a huge value may come out negative), or when that is 0 a random time
 * between --min-request-timeout and twice it. Zero or less means the watch is over at once.
 */
export function watchLifetimeMs(
  timeoutSeconds: bigint | undefined,
  minRequestTimeoutSeconds: number,
  random: () => number = Math.random,
): number {
  const nanoseconds = BigInt.asIntN(64, (timeoutSeconds ?? 0n) * 1_000_000_000n);
  if (nanoseconds !== 0n) return Number(nanoseconds / 1_000_000n);
  return minRequestTimeoutSeconds * 1000 * (1 + random());
}

/**
 * Ends the response after the last frame. A client that stopped reading cannot take the chunked end: one
 * whose watch the cache terminated for it is disconnected at once, others get a grace to take their bytes.
 */
function endResponse(res: ServerResponse, unresponsive: boolean): void {
  if (res.destroyed || res.writableEnded) return;
  if (unresponsive && res.writableNeedDrain) {
    res.destroy();
    return;
  }
  res.end();
  if (res.writableFinished) return;
  const timer = setTimeout(() => res.destroy(), endFlushGraceMs);
  timer.unref();
  const settled = () => {
    clearTimeout(timer);
    res.off("finish", settled);
    res.off("close", settled);
  };
  res.on("finish", settled);
  res.on("close", settled);
}

/** An ERROR event carrying a Status, as kube ends a watch it cannot go on with. */
function errorFrame(protobuf: boolean, error: StatusError): Buffer | string {
  return protobuf
    ? watchEventFrame("ERROR", encodeProtobuf(error.status as unknown as Record<string, unknown>))
    : `${JSON.stringify({ type: "ERROR", object: error.status })}\n`;
}

export async function watchResource(ctx: RequestContext, target: Target): Promise<void> {
  const format = responseFormat(ctx, { list: true, watch: true, kind: target.kind });
  const query = parseWatchQuery(ctx.url.searchParams, ctx.server.featureGates.enabled("WatchList"));
  if (target.name !== undefined) {
    // A watch on one object's path is a watch of its collection narrowed to that name.
    const byName = `metadata.name=${target.name}`;
    query.fieldSelector = query.fieldSelector === undefined ? byName : `${query.fieldSelector},${byName}`;
  }
  const collection: Target = { kind: target.kind, namespace: target.namespace };
  const stop = new AbortController();
  const protobuf = isProtobuf(format);
  // kube names the stream in the Content-Type of every type but JSON.
  const contentType = protobuf ? `${PROTOBUF_MEDIA_TYPE};stream=watch` : "application/json";
  let watch: Awaited<ReturnType<typeof ctx.server.resources.watch>>;
  try {
    watch = await ctx.server.resources.watch(collection, query, stop.signal);
  } catch (error) {
    if (!(error instanceof StatusError) || error.code !== 410) throw error;
    ctx.res.writeHead(200, { "Content-Type": contentType });
    ctx.res.end(errorFrame(protobuf, error));
    return;
  }
  const { minRequestTimeoutSeconds, stopping } = ctx.server.limits;
  const lifetimeMs = watchLifetimeMs(query.timeoutSeconds, minRequestTimeoutSeconds);
  const end = () => stop.abort();
  const timer = lifetimeMs > 0 && lifetimeMs <= longestTimerMs ? setTimeout(end, lifetimeMs) : undefined;
  timer?.unref();
  stopping.addEventListener("abort", end);
  ctx.res.on("close", end);
  if (lifetimeMs <= 0 || stopping.aborted) end();
  ctx.res.writeHead(200, { "Content-Type": contentType, "Transfer-Encoding": "chunked", ...headersFor(ctx.warnings) });
  ctx.res.flushHeaders();
  // API Priority and Fairness holds the watch's seats until its initial events are sent.
  const noteInitialized = () => {
    if (watch.backlogTaken) ctx.watchInitialized?.();
  };
  noteInitialized();
  const events = requestMetrics(ctx.server.metrics);
  const { group = "", version = "", resource = "" } = ctx.info ?? {};
  const recordEvent = (bytes: number) => events.watchEvent(group, version, resource, bytes);
  // Events ready at once (a backlog of thousands) are written a time slice at a time, not in one go.
  const slice = new TimeSlice();
  try {
    let first = true;
    for await (const event of watch) {
      if (ctx.res.destroyed) break;
      if (event.type !== "BOOKMARK") {
        try {
          await prepareViews([event.object], target.kind);
        } catch (error) {
          // A custom resource's conversion webhook failed: the watch ends with the failure as an event.
          if (!(error instanceof StatusError)) throw error;
          await write(ctx.res, Buffer.from(errorFrame(protobuf, error)), watch.ended);
          break;
        }
      }
      const chunk = frame(format, target.kind, event, first);
      recordEvent(chunk.length);
      if (!(await write(ctx.res, chunk, watch.ended))) break;
      if (event.type !== "BOOKMARK") first = false;
      noteInitialized();
      if (slice.spent) await slice.yieldTurn();
    }
  } finally {
    clearTimeout(timer);
    stopping.removeEventListener("abort", end);
    watch.stop();
    endResponse(ctx.res, watch.terminated);
  }
}
