// The one guard around every request: whatever is thrown while a request is read, routed or answered, at
// whatever stage, becomes a response (a StatusError its Status, anything else a logged 500) and never reaches
// the process. A client that went away, or a request whose response already ended (it timed out), leaves
// nobody to answer: that is one debug line.
import type { IncomingMessage, ServerResponse } from "node:http";
import { warningHeaders } from "../handlers/warning-headers.js";
import { writeError } from "../http/write-error.js";
import type { RequestContext, ServerState } from "./context.js";
import { pipeline, runStages } from "./pipeline.js";
import { parseRequestTarget } from "./request-target.js";
import { ClientDisconnected } from "./stages/request-body-stage.js";

function describe(req: IncomingMessage): string {
  return `${req.method ?? "?"} ${JSON.stringify(req.url ?? "")}`;
}

function answerFailure(
  state: ServerState,
  req: IncomingMessage,
  res: ServerResponse,
  warnings: readonly string[] | undefined,
  error: unknown,
): void {
  if (error instanceof ClientDisconnected || res.destroyed) {
    state.debug(`${describe(req)}: client went away before the response (${(error as Error).message ?? error})`);
    return;
  }
  if (res.writableEnded) {
    state.debug(`${describe(req)}: failed after its response ended: ${(error as Error).message ?? error}`);
    return;
  }
  try {
    if (warnings !== undefined && !res.headersSent) res.setHeader("Warning", warningHeaders(warnings));
    writeError(res, error, state.log);
  } catch (writeFailure) {
    state.log("could not write an error response", writeFailure);
    res.destroy();
  }
}

/** Serves one request through the pipeline; never throws and never rejects. */
export function serveRequest(state: ServerState, req: IncomingMessage, res: ServerResponse): void {
  // Writes after a timeout's 504 and writes to a closed connection fail here rather than as uncaught errors.
  res.on("error", (error) => state.debug(`${describe(req)}: response failed: ${error.message}`));
  let ctx: RequestContext;
  try {
    const target = parseRequestTarget(req.method ?? "GET", req.url ?? "/");
    ctx = { req, res, url: target.url, path: target.path, server: state };
  } catch (error) {
    answerFailure(state, req, res, undefined, error);
    return;
  }
  runStages(pipeline, ctx).catch((error: unknown) => answerFailure(state, req, res, ctx.warnings, error));
}
