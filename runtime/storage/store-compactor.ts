// kube-apiserver's compactor (`--etcd-compaction-interval`, default 5 minutes): at every tick the store's
// history is compacted up to the revision it had at the previous tick, so at least one interval of history
// stays for watches and continue tokens to resume from, and the history never grows without bound. Older
// revisions then answer 410 Gone (CompactedError), as after etcd's compaction.
import { CompactedError, StoreClosedError } from "./storage-errors.js";
import type { Store } from "./store.js";

export const defaultCompactionIntervalMs = 5 * 60_000;

export class StoreCompactor {
  readonly #store: Store;
  readonly #onError: (error: unknown) => void;
  readonly #timer: NodeJS.Timeout | undefined;
  /** The revision seen at the previous tick: what the next tick compacts to. */
  #previous = 0;
  #compacted = 0;
  #running: Promise<void> | undefined;

  /** `intervalMs` 0 (or less) compacts never, as kube's 0. */
  constructor(store: Store, intervalMs: number, onError: (error: unknown) => void) {
    this.#store = store;
    this.#onError = onError;
    if (intervalMs > 0) {
      this.#timer = setInterval(() => {
        // A slow compaction is not started twice.
        this.#running ??= this.tick().finally(() => {
          this.#running = undefined;
        });
      }, intervalMs);
      this.#timer.unref();
    }
  }

  /** One tick: compact to the previous tick's revision (if anything was written since the last compaction). */
  async tick(): Promise<void> {
    try {
      const current = await this.#store.currentRevision();
      if (this.#previous > this.#compacted) {
        await this.#store.compact(this.#previous);
        this.#compacted = this.#previous;
      }
      this.#previous = current;
    } catch (error) {
      if (error instanceof StoreClosedError) return;
      // Another compactor (a second server on the store) got there first: adopt its revision.
      if (error instanceof CompactedError) {
        this.#compacted = Math.max(this.#compacted, error.compactRevision);
        return;
      }
      this.#onError(error);
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#running;
  }
}
