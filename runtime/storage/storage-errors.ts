// Typed storage failures. The API layer maps them to Status errors (AlreadyExists, Conflict, NotFound,
// 410 Gone); messages for Compacted and FutureRevision are etcd's, as kube-apiserver shows them.
import type { KeyValue } from "./store.js";

export class StorageError extends Error {
  override name = "StorageError";
}

export class KeyExistsError extends StorageError {
  override name = "KeyExistsError";
  constructor(readonly key: string) {
    super(`key exists: ${key}`);
  }
}

export class NotFoundError extends StorageError {
  override name = "NotFoundError";
  constructor(readonly key: string) {
    super(`key not found: ${key}`);
  }
}

/** A guarded write whose expected modRevision is not the current one; carries the current entry. */
export class ConflictError extends StorageError {
  override name = "ConflictError";
  constructor(
    readonly current: KeyValue,
    readonly expectedModRevision: number,
  ) {
    super(`conflict on ${current.key}: expected modRevision ${expectedModRevision}, found ${current.modRevision}`);
  }
}

export class CompactedError extends StorageError {
  override name = "CompactedError";
  constructor(
    readonly compactRevision: number,
    readonly requestedRevision: number,
  ) {
    super("mvcc: required revision has been compacted");
  }
}

export class FutureRevisionError extends StorageError {
  override name = "FutureRevisionError";
  constructor(
    readonly requestedRevision: number,
    readonly currentRevision: number,
  ) {
    super("mvcc: required revision is a future revision");
  }
}

export class StoreClosedError extends StorageError {
  override name = "StoreClosedError";
  constructor() {
    super("storage: store is closed");
  }
}
