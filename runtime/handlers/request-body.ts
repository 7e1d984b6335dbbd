// A write's body: decoded by its Content-Type, unknown fields dropped and duplicate keys noticed, both
// reported as the request's fieldValidation level asks (warnings, a 400, or nothing).

import { decodeObject } from "../codecs/decode-object.js";
import type { FieldValidation } from "../codecs/field-validation.js";
import { containerBeyondDepth } from "../codecs/json-tree.js";
import { maxObjectDepth, storedObjectTooDeep } from "../codecs/object-depth.js";
import type { KubeObject } from "../object/kube-object.js";
import type { CustomKind } from "../registry/served-kind.js";
import type { RequestContext } from "../server/context.js";

export interface RequestObject {
  object: KubeObject;
  warnings: string[];
}

/** The body as an object of `kind` (the kind served at the endpoint, or a subresource's kind). */
export function readRequestObject(
  ctx: RequestContext,
  kind: { group: string; version: string; kind: string; custom?: CustomKind },
  level: FieldValidation,
): RequestObject {
  const decoded = decodeObject(ctx.req.headers["content-type"], ctx.body ?? Buffer.alloc(0), level, kind, kind.custom);
  // Refused before any step walks it on the call stack (docs/patch.md: the depth kapi stores).
  const tooDeep = containerBeyondDepth(decoded.object, maxObjectDepth);
  if (tooDeep !== undefined) throw storedObjectTooDeep(tooDeep);
  ctx.audit?.requestObject(decoded.object);
  return decoded;
}
