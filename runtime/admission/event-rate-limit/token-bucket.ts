// A token bucket as client-go's token-bucket rate limiter has it (golang.org/x/time/rate underneath): it
// starts full, refills `qps` tokens a second up to `burst`, and a refused request takes nothing.

/** Milliseconds since some fixed point; the plugin's clock, replaced in tests. */
export type Clock = () => number;

export class TokenBucket {
  readonly #qps: number;
  readonly #burst: number;
  readonly #now: Clock;
  #tokens: number;
  #last: number;

  constructor(qps: number, burst: number, now: Clock) {
    this.#qps = qps;
    this.#burst = burst;
    this.#now = now;
    this.#tokens = burst;
    this.#last = now();
  }

  /** Takes one token when there is one (TryAccept). */
  tryAccept(): boolean {
    const now = this.#now();
    // A clock that goes backwards refills nothing, as rate.Limiter treats it.
    const elapsedSeconds = Math.max(0, now - this.#last) / 1000;
    this.#tokens = Math.min(this.#burst, this.#tokens + elapsedSeconds * this.#qps);
    this.#last = now;
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }
}
