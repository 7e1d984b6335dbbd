// Continue tokens in kube's format, so clients that peek into them (some do, for the list revision) see
// what they expect: base64url (no padding) of {"v":"meta.k8s.io/v1","rv":<revision>,"start":"<key>"},
// `start` being the next key relative to the resource's key prefix. rv -1 means "continue on the current
// state", the token a 410 for an expired one offers.

import { posix } from "node:path";
import { badRequest, type StatusError } from "../errors/status-error.js";

export interface ContinuePosition {
  /** Full key to resume at (inclusive). */
  startKey: string;
  /** The list's revision; -1 for the current state. */
  revision: number;
}

export function encodeContinue(nextKey: string, prefix: string, revision: number): string {
  if (!nextKey.startsWith(prefix)) throw new RangeError(`key ${nextKey} is not under ${prefix}`);
  const json = JSON.stringify({ v: "meta.k8s.io/v1", rv: revision, start: nextKey.slice(prefix.length) });
  return Buffer.from(json, "utf8").toString("base64url");
}

/** Throws 400 `invalid continue token: …` with kube's reasons for a token it would not accept. */
export function decodeContinue(token: string, prefix: string): ContinuePosition {
  if (!/^[A-Za-z0-9_-]*$/.test(token) || token.length % 4 === 1) throw invalid("continue key is not valid");
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, "base64url").toString("utf8"));
  } catch {
    throw invalid("continue key is not valid");
  }
  const fields = (typeof parsed === "object" && parsed !== null ? parsed : {}) as Record<string, unknown>;
  if (fields.v !== "meta.k8s.io/v1") {
    throw invalid("continue key is not valid: server does not recognize this encoded version");
  }
  const revision = fields.rv;
  if (typeof revision !== "number" || !Number.isSafeInteger(revision) || revision === 0) {
    throw invalid("continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)");
  }
  const start = typeof fields.start === "string" ? fields.start : "";
  if (start === "") throw invalid("continue key is not valid: encoded start key empty (version meta.k8s.io/v1)");
  // As kube: a cleaned path must equal the given one, so a token cannot climb out of the prefix.
  const rooted = start.startsWith("/") ? start : `/${start}`;
  if (posix.normalize(rooted) !== rooted || (rooted.endsWith("/") && rooted !== "/")) {
    throw invalid(`continue key is not valid: ${start}`);
  }
  return { startKey: prefix + rooted.slice(1), revision };
}

function invalid(reason: string): StatusError {
  return badRequest(`invalid continue token: ${reason}`);
}
