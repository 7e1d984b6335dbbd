// Large response bodies without event-loop stalls. A body is given as a lazy sequence of pieces whose making
// is the encoding work (an empty piece marks a point where that work may pause): the pieces are taken a time
// slice at a time, yielding to the event loop between slices, then written to the response in bounded
// writes that wait for the socket to drain, because TLS encrypts each write synchronously. The bytes and
// headers are those of `writeEncoded` for the joined body: Content-Length, and gzip above the threshold when
// the client accepts it (compressed off the event loop). A client that goes away stops the work.
import type { IncomingMessage, ServerResponse } from "node:http";
import { setImmediate as nextTurn } from "node:timers/promises";
import { constants, createGzip } from "node:zlib";
import { acceptsGzip, GZIP_THRESHOLD_BYTES, responseHeaders, writeEncoded } from "./encode-response.js";

/** How long encoding runs before other work on the event loop gets its turn. */
export const SLICE_MS = 4;
/** The most bytes handed to the socket in one write. */
const WRITE_BYTES = 64 * 1024;

export interface SlicedBody {
  contentType: string;
  /** The body in order; taking a piece may do the work of making it. */
  pieces: Iterable<Uint8Array>;
}

/** Marks when work started and, once a slice's time is used up, lets the event loop run before going on. */
export class TimeSlice {
  private started = performance.now();

  /** True when the slice is used up: the caller should `await yieldTurn()`. */
  get spent(): boolean {
    return performance.now() - this.started >= SLICE_MS;
  }

  async yieldTurn(): Promise<void> {
    await nextTurn();
    this.started = performance.now();
  }
}

/** The response can no longer take this body: the client went, or another answer (a timeout) was sent. */
function gone(res: ServerResponse): boolean {
  return res.destroyed || res.headersSent || res.writableEnded;
}

/** All pieces, taken in time slices; undefined when the response went away meanwhile. */
async function collect(res: ServerResponse, pieces: Iterable<Uint8Array>): Promise<Uint8Array[] | undefined> {
  const taken: Uint8Array[] = [];
  const slice = new TimeSlice();
  for (const piece of pieces) {
    if (piece.length > 0) taken.push(piece);
    if (slice.spent) {
      await slice.yieldTurn();
      if (gone(res)) return undefined;
    }
  }
  return taken;
}

/** The pieces regrouped into writes of at most WRITE_BYTES (a larger piece is cut, a run of small ones joined). */
function* writes(pieces: readonly Uint8Array[]): Generator<Uint8Array> {
  let group: Uint8Array[] = [];
  let size = 0;
  for (const piece of pieces) {
    if (size + piece.length > WRITE_BYTES && size > 0) {
      yield Buffer.concat(group, size);
      group = [];
      size = 0;
    }
    if (piece.length >= WRITE_BYTES) {
      for (let at = 0; at < piece.length; at += WRITE_BYTES) yield piece.subarray(at, at + WRITE_BYTES);
      continue;
    }
    group.push(piece);
    size += piece.length;
  }
  if (size > 0) yield Buffer.concat(group, size);
}

/** Resolves true once the response drained, false if it closed first. */
function drained(res: ServerResponse): Promise<boolean> {
  if (res.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    const settle = (result: boolean) => () => {
      res.off("drain", onDrain);
      res.off("close", onClose);
      resolve(result);
    };
    const onDrain = settle(true);
    const onClose = settle(false);
    res.on("drain", onDrain);
    res.on("close", onClose);
  });
}

/** gzip level 1 of the pieces, compressed on the thread pool; undefined when zlib fails. */
async function gzipPieces(pieces: readonly Uint8Array[]): Promise<Buffer[] | undefined> {
  const zip = createGzip({ level: constants.Z_BEST_SPEED });
  const out: Buffer[] = [];
  zip.on("data", (chunk: Buffer) => out.push(chunk));
  const finished = new Promise<boolean>((resolve) => {
    zip.once("end", () => resolve(true));
    zip.once("error", () => resolve(false));
  });
  for (const chunk of writes(pieces)) {
    if (!zip.write(chunk)) {
      const ok = await Promise.race([
        new Promise<boolean>((resolve) => zip.once("drain", () => resolve(true))),
        finished.then(() => false),
      ]);
      if (!ok) break;
    }
  }
  zip.end();
  return (await finished) ? out : undefined;
}

/**
 * A socket that takes every write at once drains within the same turn of the event loop, so the writes are
 * time-sliced as well as paced by the socket.
 */
async function writeAll(res: ServerResponse, pieces: readonly Uint8Array[]): Promise<void> {
  const slice = new TimeSlice();
  for (const chunk of writes(pieces)) {
    if (res.destroyed) return;
    if (!res.write(chunk) && !(await drained(res))) return;
    if (slice.spent) await slice.yieldTurn();
  }
  if (!res.destroyed) res.end();
}

/**
 * Writes the body as `writeEncoded` writes the joined pieces, without holding the event loop for longer than
 * a slice. Resolves once the last byte was handed to the response, or when the response went away.
 */
export async function writeSliced(
  req: IncomingMessage,
  res: ServerResponse,
  code: number,
  body: SlicedBody,
  headers: Record<string, string | string[]> | undefined,
  compression: boolean,
): Promise<void> {
  const pieces = await collect(res, body.pieces);
  if (pieces === undefined) return;
  const length = pieces.reduce((n, piece) => n + piece.length, 0);
  if (length <= WRITE_BYTES) {
    writeEncoded(
      req,
      res,
      code,
      { contentType: body.contentType, body: Buffer.concat(pieces, length) },
      headers,
      compression,
    );
    return;
  }
  if (compression && length > GZIP_THRESHOLD_BYTES && acceptsGzip(req)) {
    const compressed = await gzipPieces(pieces);
    if (gone(res)) return;
    if (compressed !== undefined) {
      const size = compressed.reduce((n, chunk) => n + chunk.length, 0);
      res.writeHead(code, responseHeaders(body.contentType, size, true, headers));
      return writeAll(res, compressed);
    }
  }
  if (gone(res)) return;
  res.writeHead(code, responseHeaders(body.contentType, length, false, headers));
  return writeAll(res, pieces);
}
