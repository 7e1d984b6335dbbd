// What the cache holds: each stored version decoded once into a deep-frozen object, kept beside the
// store's bytes and shared by every reader and watcher.
import type { KeyValue } from "../storage/store.js";

export interface CachedObject<T> {
  readonly key: string;
  /** The key segment after the prefix when the key has two (`<namespace>/<name>`); undefined otherwise. */
  readonly namespace: string | undefined;
  /** Decoded once and deep-frozen: readers share it and must copy before changing anything. */
  readonly object: T;
  /** The store's entry: raw bytes and revisions (modRevision is the object's resourceVersion). */
  readonly kv: KeyValue;
  /**
   * Serializations of this version by encoding and served version (`json:v1`, `protobuf:v1`: a protobuf
   * response's whole body; `…:deleted` for a deletion's watch event), filled by the first writer of a response.
   */
  readonly encoded: Map<string, Uint8Array>;
}

/** One change as the cache recorded it: the new state (absent for a delete) and the one it replaced. */
export interface HistoryEvent<T> {
  readonly revision: number;
  readonly key: string;
  readonly namespace: string | undefined;
  readonly object: CachedObject<T> | undefined;
  readonly prev: CachedObject<T> | undefined;
  /** When the cache saw it, for the history window. */
  readonly time: number;
}

export function deepFreeze<T>(value: T): T {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return value;
  for (const child of Object.values(value)) deepFreeze(child);
  return Object.freeze(value);
}
