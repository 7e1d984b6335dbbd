// Exponential backoff between attempts of a watch loop: 10 ms doubling to 10 s, cut short by the signal.

const firstDelayMs = 10;
const maxDelayMs = 10_000;

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}

export class Backoff {
  private delay = firstDelayMs;

  reset(): void {
    this.delay = firstDelayMs;
  }

  async wait(signal: AbortSignal): Promise<void> {
    await sleep(this.delay, signal);
    this.delay = Math.min(this.delay * 2, maxDelayMs);
  }
}
