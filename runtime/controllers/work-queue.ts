// A controller's work queue, as client-go's rate-limited workqueue: a key waits at most once, is never
// handled by two workers at a time (a key added while it is handled runs again afterwards), and a key
// whose handling fails or asks to come back is retried with per-key exponential backoff; a key can also be
// added after a delay (a deadline to look at again).
import { Backoff, type BackoffPolicy } from "../../sdk/backoff.js";

/** What a handler says when it is not finished: come back later without counting it as an error. */
export const retryLater = "retry";

export type Handler<K> = (key: K) => Promise<typeof retryLater | undefined>;

export interface WorkQueueOptions {
  /** Names the controller in log messages. */
  name: string;
  log: (message: string, error: unknown) => void;
  /** Keys handled at once; default 1. */
  workers?: number;
  /** First retry delay; doubles per failure up to maxDelayMs. Defaults 5 ms and 30 s. */
  baseDelayMs?: number;
  maxDelayMs?: number;
}

/** The longest delay setTimeout honours (2^31 - 1 ms, about 24.8 days). */
const maxTimeoutMs = 2 ** 31 - 1;

export class WorkQueue<K> {
  private pending: K[] = [];
  private pendingAt = 0;
  private readonly waiting = new Set<K>();
  private readonly handling = new Set<K>();
  private readonly backoffs = new Map<K, Backoff>();
  private readonly timers = new Map<K, NodeJS.Timeout>();
  private readonly delayed = new Set<NodeJS.Timeout>();
  private active = 0;
  private stopped = false;
  private idle: (() => void) | undefined;
  private readonly workers: number;
  private readonly retryPolicy: BackoffPolicy;

  constructor(
    private readonly handle: Handler<K>,
    private readonly options: WorkQueueOptions,
  ) {
    this.workers = options.workers ?? 1;
    const maxDelayMs = options.maxDelayMs ?? 30_000;
    // The cap bounds the first delay too.
    this.retryPolicy = { firstDelayMs: Math.min(options.baseDelayMs ?? 5, maxDelayMs), maxDelayMs };
  }

  add(key: K): void {
    if (this.stopped || this.waiting.has(key)) return;
    this.waiting.add(key);
    if (!this.handling.has(key)) this.pending.push(key);
    this.pump();
  }

  /** Adds the key after its backoff: the delay doubles with each retry since it last succeeded. */
  addRateLimited(key: K): void {
    if (this.stopped || this.timers.has(key)) return;
    let backoff = this.backoffs.get(key);
    if (backoff === undefined) {
      backoff = new Backoff(this.retryPolicy);
      this.backoffs.set(key, backoff);
    }
    const delay = backoff.next();
    const timer = setTimeout(() => {
      this.timers.delete(key);
      this.add(key);
    }, delay);
    timer.unref();
    this.timers.set(key, timer);
  }

  /** client-go's AddAfter: adds the key once `ms` have passed, each call on its own timer. */
  addAfter(key: K, ms: number): void {
    if (this.stopped) return;
    // Capped, since Node fires a longer timeout at once; a capped key comes back early and is asked for again.
    const timer = setTimeout(
      () => {
        this.delayed.delete(timer);
        this.add(key);
      },
      Math.min(ms, maxTimeoutMs),
    );
    timer.unref();
    this.delayed.add(timer);
  }

  /** Drops what waits and resolves once the keys being handled are done. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    for (const timer of this.delayed) clearTimeout(timer);
    this.delayed.clear();
    this.pending = [];
    this.pendingAt = 0;
    this.waiting.clear();
    if (this.active === 0) return;
    await new Promise<void>((resolve) => {
      this.idle = resolve;
    });
  }

  private pump(): void {
    while (!this.stopped && this.active < this.workers && this.pendingAt < this.pending.length) {
      const key = this.pending[this.pendingAt++] as K;
      if (this.pendingAt === this.pending.length) {
        this.pending = [];
        this.pendingAt = 0;
      }
      this.waiting.delete(key);
      this.handling.add(key);
      this.active++;
      void this.run(key);
    }
  }

  private async run(key: K): Promise<void> {
    try {
      const outcome = await this.handle(key);
      if (outcome === retryLater) this.addRateLimited(key);
      else this.backoffs.delete(key);
    } catch (error) {
      if (!this.stopped) {
        this.options.log(`${this.options.name}: syncing ${String(key)} failed`, error);
        this.addRateLimited(key);
      }
    } finally {
      this.handling.delete(key);
      this.active--;
      if (this.waiting.has(key)) this.pending.push(key);
      this.pump();
      if (this.stopped && this.active === 0) this.idle?.();
    }
  }
}
