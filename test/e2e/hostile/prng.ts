// A small seeded generator (mulberry32), so that a fuzz run is reproduced from its seed alone.

export class Prng {
  private state: number;

  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** An integer in [min, max]. */
  between(min: number, max: number): number {
    return min + this.int(max - min + 1);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error("pick from an empty list");
    return items[this.int(items.length)] as T;
  }

  /**
   * A size: one of `usual`, or rarely one of `large`, so that big bodies stay a small share of a run's
   * bytes and time.
   */
  size(usual: readonly number[], large: readonly number[]): number {
    return this.chance(0.02) ? this.pick(large) : this.pick(usual);
  }

  bytes(n: number): Buffer {
    const out = Buffer.alloc(n);
    for (let i = 0; i < n; i++) out[i] = this.int(256);
    return out;
  }

  /** A string of `n` characters drawn from `alphabet`. */
  string(n: number, alphabet: string): string {
    let out = "";
    for (let i = 0; i < n; i++) out += alphabet[this.int(alphabet.length)];
    return out;
  }
}

/** The seed a run uses: KAPI_FUZZ_SEED when set, else one drawn now (and printed by the caller). */
export function fuzzSeed(env: string | undefined = process.env.KAPI_FUZZ_SEED): number {
  if (env !== undefined && env !== "") {
    const seed = Number(env);
    if (!Number.isInteger(seed)) throw new Error(`KAPI_FUZZ_SEED must be an integer, got ${JSON.stringify(env)}`);
    return seed >>> 0;
  }
  return Math.floor(Math.random() * 2 ** 32);
}
