// Bounds what one request may cost: its body is read here, at most 3 MiB as kube-apiserver allows, else 413.
import type { IncomingMessage } from "node:http";
import { requestEntityTooLarge } from "../../errors/status-error.js";
import type { Stage } from "../context.js";

export const maxRequestBodyBytes = 3 * 1024 * 1024;

const tooLarge = () => requestEntityTooLarge(`limit is ${maxRequestBodyBytes}`);

function hasBody(req: IncomingMessage): boolean {
  return req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxRequestBodyBytes) {
        // Stop buffering and let the rest drain unread, so the 413 can still be answered on this connection.
        req.off("data", onData);
        req.resume();
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    req.on("data", onData);
    req.once("end", () => resolve(Buffer.concat(chunks, size)));
    req.once("error", reject);
  });
}

export const limits: Stage = {
  name: "limits",
  async run(ctx, next) {
    if (hasBody(ctx.req)) {
      if (Number(ctx.req.headers["content-length"] ?? 0) > maxRequestBodyBytes) throw tooLarge();
      ctx.body = await readBody(ctx.req);
    }
    await next();
  },
};
