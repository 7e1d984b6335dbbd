// Exponential backoff, shared by the SDK and the server, each caller with its own numbers: the SDK's watches
// and informers, the server's watch loops and work queues, and its webhook retries (kube's jittered ones).
// The first delay is taken as given; each later one is the previous times `factor`, up to `maxDelayMs`.

export interface BackoffPolicy {
  firstDelayMs: number;
  /** Growth of the delay after each wait; default 2. */
  factor?: number;
  /** Cap of the growing delay; default none. */
  maxDelayMs?: number;
  /** Each wait is the delay stretched by a random fraction of it up to this, as kube's wait.Jitter; default 0. */
  jitter?: number;
}

export class Backoff {
  private delayMs: number;

  constructor(private readonly policy: BackoffPolicy) {
    this.delayMs = policy.firstDelayMs;
  }

  /** Back to the first delay, once something works again. */
  reset(): void {
    this.delayMs = this.policy.firstDelayMs;
  }

  /** The current delay, jittered; the next one grows. */
  next(): number {
    const { factor = 2, maxDelayMs = Number.POSITIVE_INFINITY, jitter = 0 } = this.policy;
    const ms = this.delayMs * (1 + Math.random() * jitter);
    this.delayMs = Math.min(this.delayMs * factor, maxDelayMs);
    return ms;
  }

  /** Resolves after the next delay, or at once when `signal` aborts. */
  wait(signal?: AbortSignal): Promise<void> {
    const ms = this.next();
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
