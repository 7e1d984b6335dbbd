// A patch or apply names the revision it was made for only through the resourceVersion it leaves: left as
// stored (or removed) it is unconditional, and a write that raced another is tried again on the newer
// object; changed, it asks for that revision, and a conflict is the client's (409, never retried).
import type { KubeObject } from "../object/kube-object.js";
import { objectMeta } from "./object-access.js";

/** True when `result` asks for a revision other than `before`'s; otherwise pins it to `before`'s. */
export function pinnedTo(result: KubeObject, before: KubeObject): boolean {
  const meta = objectMeta(result);
  const requested = meta.resourceVersion;
  if (typeof requested === "string" && requested !== "") return requested !== objectMeta(before).resourceVersion;
  meta.resourceVersion = objectMeta(before).resourceVersion;
  return false;
}
