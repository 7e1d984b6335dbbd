// The one place a failure becomes a response: a StatusError answers with its Status, anything else is a bug
// of kapi's and answers 500 InternalError after being logged, as kube-apiserver's panic and error handlers do.
import type { ServerResponse } from "node:http";
import { encodeStatus } from "../codecs/encode-response.js";
import { internal, StatusError } from "../errors/status-error.js";

export type ErrorLog = (message: string, error: unknown) => void;

export function writeError(res: ServerResponse, error: unknown, log: ErrorLog): void {
  let status: StatusError;
  if (error instanceof StatusError) {
    status = error;
  } else {
    log("unhandled error while serving a request", error);
    status = internal(error instanceof Error ? error.message : String(error));
  }
  if (res.headersSent) {
    res.destroy();
    return;
  }
  // Encoded as the client accepts (protobuf when it prefers it), else JSON, as kube's ErrorNegotiated.
  const { contentType, body } = encodeStatus(res.req?.headers.accept, status.status);
  const headers: Record<string, string | number> = {
    "Content-Type": contentType,
    "Content-Length": body.length,
    "X-Content-Type-Options": "nosniff",
  };
  const retry = status.status.details?.retryAfterSeconds;
  if (retry !== undefined) headers["Retry-After"] = retry;
  res.writeHead(status.code, headers);
  res.end(body);
}
