import { afterEach, describe, expect, it, vi } from "vitest";
import { Backoff } from "../../sdk/backoff.js";

const delays = (backoff: Backoff, count: number) => Array.from({ length: count }, () => backoff.next());

describe("Backoff", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("doubles by default up to the cap, and starts over on reset", () => {
    const backoff = new Backoff({ firstDelayMs: 10, maxDelayMs: 50 });
    expect(delays(backoff, 5)).toEqual([10, 20, 40, 50, 50]);
    backoff.reset();
    expect(delays(backoff, 2)).toEqual([10, 20]);
  });

  it("takes the first delay as given even above the cap", () => {
    expect(delays(new Backoff({ firstDelayMs: 60_000, maxDelayMs: 30_000 }), 3)).toEqual([60_000, 30_000, 30_000]);
  });

  it("grows by the factor without a cap, each wait stretched by up to the jitter", () => {
    vi.spyOn(Math, "random").mockReturnValue(0.5);
    expect(delays(new Backoff({ firstDelayMs: 500, factor: 1.5, jitter: 0.5 }), 3)).toEqual([625, 937.5, 1406.25]);
  });

  it("waits the delay, or not at all once the signal aborts", async () => {
    const abort = new AbortController();
    abort.abort();
    const started = performance.now();
    await new Backoff({ firstDelayMs: 60_000 }).wait(abort.signal);
    await new Backoff({ firstDelayMs: 1 }).wait();
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
