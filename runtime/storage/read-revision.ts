// Which revision a read sees, with etcd's rules: 0 means current, older than the compact revision is gone,
// newer than the current one does not exist yet.
import { CompactedError, FutureRevisionError } from "./storage-errors.js";

export function readRevision(requested: number | undefined, current: number, compacted: number): number {
  if (requested === undefined || requested === 0) return current;
  if (!Number.isSafeInteger(requested) || requested < 0) throw new RangeError(`invalid revision: ${requested}`);
  if (requested > current) throw new FutureRevisionError(requested, current);
  if (requested < compacted) throw new CompactedError(compacted, requested);
  return requested;
}
