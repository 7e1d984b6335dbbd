// The retry delay of watches and informers: doubling from a first delay up to 30s, back to the first delay
// once something works again, and cut short when the caller aborts.
const maxDelayMs = 30_000;

export class Backoff {
  private delayMs: number;

  constructor(private readonly firstDelayMs: number) {
    this.delayMs = firstDelayMs;
  }

  reset(): void {
    this.delayMs = this.firstDelayMs;
  }

  /** Resolves after the current delay, or at once when `signal` aborts; the next delay doubles. */
  wait(signal: AbortSignal | undefined): Promise<void> {
    const ms = this.delayMs;
    this.delayMs = Math.min(this.delayMs * 2, maxDelayMs);
    return new Promise((resolve) => {
      if (signal?.aborted === true) return resolve();
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener("abort", done);
    });
  }
}
