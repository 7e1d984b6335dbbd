// startServer's request(): one request answered by the same guard and pipeline as a request over HTTP,
// from a request and response made of streams rather than a socket. The casts are where those stand in for
// Node's classes: they hold every member the pipeline and the handlers use (in-process-request.ts,
// in-process-response.ts).
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ServerState } from "./context.js";
import { InProcessIncomingMessage, type InProcessRequest } from "./in-process-request.js";
import { InProcessResponse } from "./in-process-response.js";
import { serveRequest } from "./serve-request.js";

/** Resolves with the response once its head is sent; its body follows (as a stream for a watch). */
export async function serveInProcess(
  state: ServerState,
  request: InProcessRequest,
  adminToken: string,
): Promise<Response> {
  const req = new InProcessIncomingMessage(request, adminToken) as unknown as IncomingMessage;
  const res = new InProcessResponse(req);
  serveRequest(state, req, res as unknown as ServerResponse);
  return res.response;
}
