// apimachinery's LRUExpireCache: at most `size` entries, the least recently used dropped first, each entry
// gone once its own time to live has passed (a time to live of 0 keeps nothing).

export class ExpiringCache<V> {
  readonly #size: number;
  readonly #now: () => number;
  readonly #entries = new Map<string, { value: V; expiresAt: number }>();

  constructor(size: number, now: () => number) {
    this.#size = size;
    this.#now = now;
  }

  get(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    this.#entries.delete(key);
    if (this.#now() >= entry.expiresAt) return undefined;
    // Re-inserted: the Map's order is the recency order.
    this.#entries.set(key, entry);
    return entry.value;
  }

  add(key: string, value: V, ttlMs: number): void {
    this.#entries.delete(key);
    this.#entries.set(key, { value, expiresAt: this.#now() + ttlMs });
    if (this.#entries.size > this.#size) {
      const oldest = this.#entries.keys().next().value as string;
      this.#entries.delete(oldest);
    }
  }
}
