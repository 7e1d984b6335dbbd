// Reads the request body, after authorization as kube-apiserver does (its handlers read it), so a refused
// request costs no buffering: at most 3 MiB (3145728 bytes) as kube-apiserver allows, else 413. A client that
// asked for `100-continue` is told to go on only here. A client that goes away mid-upload ends the request.
import type { IncomingMessage } from "node:http";
import { requestEntityTooLarge } from "../../errors/status-error.js";
import type { Stage } from "../context.js";

export const maxRequestBodyBytes = 3 * 1024 * 1024;

const tooLarge = () => requestEntityTooLarge(`limit is ${maxRequestBodyBytes}`);

/** Thrown when the client closed the connection before its body arrived; nobody is left to answer. */
export class ClientDisconnected extends Error {
  constructor() {
    super("client disconnected while sending the request body");
    this.name = "ClientDisconnected";
  }
}

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers["content-length"];
  // An HTTP/2 request may send DATA frames with no length: it has a body unless its HEADERS ended the stream.
  const stream = (req as { stream?: { endAfterHeaders?: boolean } }).stream;
  if (length === undefined && stream?.endAfterHeaders === false) return true;
  return req.headers["transfer-encoding"] !== undefined || Number(length ?? 0) > 0;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // The client may have gone while the request was being authorized: no close event is coming then.
    if (req.destroyed) {
      reject(new ClientDisconnected());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onGone);
      req.off("close", onGone);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxRequestBodyBytes) {
        // Stop buffering and let the rest drain unread, so the 413 can still be answered on this connection.
        cleanup();
        req.resume();
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks, size));
    };
    const onGone = () => {
      cleanup();
      reject(new ClientDisconnected());
    };
    req.on("data", onData);
    req.once("end", onEnd);
    req.once("error", onGone);
    req.once("close", onGone);
  });
}

export const requestBody: Stage = {
  name: "requestBody",
  async run(ctx, next) {
    if (hasBody(ctx.req)) {
      if (Number(ctx.req.headers["content-length"] ?? 0) > maxRequestBodyBytes) throw tooLarge();
      if (/^100-continue$/i.test(String(ctx.req.headers.expect ?? "").trim())) ctx.res.writeContinue();
      ctx.body = await readBody(ctx.req);
    }
    await next();
  },
};
