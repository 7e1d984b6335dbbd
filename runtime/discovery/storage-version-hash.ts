// The storage version hash of discovery: clients compare it to notice a change of storage version.
import { createHash } from "node:crypto";

/** base64 of the first 8 bytes of sha256("<group>/<version>/<kind>"), as kube-apiserver computes it. */
export function storageVersionHash(group: string, version: string, kind: string): string {
  const digest = createHash("sha256").update(`${group}/${version}/${kind}`).digest();
  return digest.subarray(0, 8).toString("base64");
}
