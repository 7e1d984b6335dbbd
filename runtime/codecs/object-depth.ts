// How deep an object kapi writes may nest, and kube's words for one that nests deeper. kube-apiserver's JSON
// decoder stops at 10000 nested containers, and every object it stores is read back through it with its
// managedFields, whose fieldsV1 nest a few levels below the fields they own: a patch result deeper than that
// is refused when it is decoded, a deeper stored object when storage reads it back. kapi refuses at a lower
// depth with the same answers, since its walks of an object (structuredClone, JSON.stringify, the field
// manager's) run on Node's call stack, which holds about two thousand levels.
import { badRequest, type StatusError } from "../errors/status-error.js";

/** The most nested containers (objects and lists) an object kapi writes may have, managedFields included. */
export const maxObjectDepth = 1000;

/**
 * kube's answer when storage reads back an object nested too deep: the decoder's error, unwrapped, which
 * kube answers 500; the object is the client's, so kapi answers 400 with the same words.
 */
export function storedObjectTooDeep(bracket: "{" | "["): StatusError {
  return badRequest(`invalid character '${bracket}' exceeded max depth`);
}
