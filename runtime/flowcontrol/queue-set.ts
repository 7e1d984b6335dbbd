// One priority level's seats and queues, as kube-apiserver's queueset keeps them. A request asks for its
// seats: it runs at once while the level's concurrency limit has room and nobody waits, waits otherwise in the
// shortest queue of the hand its flow deals (shuffle sharding), and is rejected when that queue is full
// (`queue-full`), when its wait outlasts its wait limit (`time-out`), when its client leaves (`cancelled`), or
// at once when the level does not queue (`concurrency-limit`). Waiting requests are dispatched by start-time
// fair queuing over seats: the non-empty queue with the smallest virtual start goes next, and a dispatch
// advances its queue's virtual start by the seats it took. kube's queueset also weighs the time requests take
// (seat-seconds, corrected on completion); this one counts seats alone (docs/flowcontrol.md).
import { dealHand } from "./shuffle-sharding.js";

export type RejectReason = "queue-full" | "time-out" | "concurrency-limit" | "cancelled";

export interface QueueSetConfig {
  /** Seats the level may have in use (its current concurrency limit); ignored when exempt. */
  concurrencyLimit: number;
  /** 0: the level does not queue (Reject). */
  queues: number;
  handSize: number;
  queueLengthLimit: number;
  /** The exempt level: every request runs at once. */
  exempt: boolean;
}

interface Waiter {
  seats: number;
  queue: Queue;
  enqueuedAt: number;
  /** The queue's length just after it joined. */
  lengthAfter: number;
  settle(outcome: Outcome): void;
}

interface Queue {
  index: number;
  waiting: Waiter[];
  seatsInUse: number;
  executing: number;
  /** The virtual time its next request starts at. */
  virtualStart: number;
}

export interface Grant {
  readonly seats: number;
  /** How long it waited in a queue, in ms (0 when it ran at once). */
  readonly waitedMs: number;
  /** The queue's length just after it was queued, or undefined when it never queued. */
  readonly queueLengthAfterEnqueue: number | undefined;
  /** Gives its seats back; idempotent. */
  release(): void;
}

export type Outcome = { grant: Grant } | { rejected: RejectReason; waitedMs: number };

/**
 * What a request brings to a queuing level: the flow's hash only levels that queue need, and the wait deadline's
 * timer and the client-gone listener are made only when it must wait (most requests are dispatched at once).
 */
export interface Waiting {
  /** The flow's hash, which chooses its hand of queues. */
  flowHash(): bigint;
  /** How long it may wait, in ms; it is rejected with `time-out` after. */
  readonly limitMs: number;
  /** Calls `onCancel` once the client left (at once when it already has); returns what stops listening. */
  watchCancel(onCancel: () => void): () => void;
}

export class QueueSet {
  private queues: Queue[] = [];
  private seatsInUse = 0;
  private executing = 0;
  private virtualNow = 0;
  /** Where the round-robin tie-break starts. */
  private robin = 0;
  /** Counts enqueues, to rotate where a hand is first looked at (as kube does). */
  private enqueues = 0;

  constructor(private config: QueueSetConfig) {
    this.resizeQueues();
  }

  reconfigure(config: QueueSetConfig): void {
    this.config = config;
    this.resizeQueues();
    this.dispatch();
  }

  get concurrencyLimit(): number {
    return this.config.concurrencyLimit;
  }

  /** Seats held by executing requests. */
  get seatsExecuting(): number {
    return this.seatsInUse;
  }

  get requestsExecuting(): number {
    return this.executing;
  }

  get requestsWaiting(): number {
    return this.queues.reduce((sum, queue) => sum + queue.waiting.length, 0);
  }

  get seatsWaiting(): number {
    return this.queues.reduce((sum, queue) => sum + queue.waiting.reduce((s, w) => s + w.seats, 0), 0);
  }

  /** Each queue's waiting requests and executing requests, for the debug dump. */
  queueStates(): { index: number; waiting: number; executing: number; seatsInUse: number; virtualStart: number }[] {
    return this.queues.map((q) => ({
      index: q.index,
      waiting: q.waiting.length,
      executing: q.executing,
      seatsInUse: q.seatsInUse,
      virtualStart: q.virtualStart,
    }));
  }

  /** Asks for `seats`; `waiting` is consulted only when the request must queue. */
  acquire(seats: number, waiting: Waiting): Promise<Outcome> {
    if (this.config.exempt) return Promise.resolve({ grant: this.start(seats, undefined, 0, undefined) });
    if (this.config.queues === 0) {
      if (!this.canAccommodate(seats)) return Promise.resolve({ rejected: "concurrency-limit", waitedMs: 0 });
      return Promise.resolve({ grant: this.start(seats, undefined, 0, undefined) });
    }
    const queue = this.chooseQueue(waiting.flowHash());
    if (this.seatsInUse >= this.config.concurrencyLimit && queue.waiting.length >= this.config.queueLengthLimit) {
      return Promise.resolve({ rejected: "queue-full", waitedMs: 0 });
    }
    return new Promise<Outcome>((resolve) => {
      const enqueuedAt = performance.now();
      let settled = false;
      let timer: NodeJS.Timeout | undefined;
      let stopWatching: (() => void) | undefined;
      const waiter: Waiter = {
        seats,
        queue,
        enqueuedAt,
        lengthAfter: queue.waiting.length + 1,
        settle: (outcome) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          stopWatching?.();
          resolve(outcome);
        },
      };
      if (queue.waiting.length === 0 && queue.executing === 0) {
        queue.virtualStart = Math.max(queue.virtualStart, this.virtualNow);
      }
      queue.waiting.push(waiter);
      this.dispatch();
      // Dispatched at once (the usual case): no deadline or listener was needed.
      if (settled) return;
      timer = setTimeout(() => this.abandon(waiter, "time-out"), waiting.limitMs);
      stopWatching = waiting.watchCancel(() => this.abandon(waiter, "cancelled"));
      if (settled) stopWatching();
    });
  }

  private abandon(waiter: Waiter, reason: RejectReason): void {
    const waiting = waiter.queue.waiting;
    const at = waiting.indexOf(waiter);
    if (at < 0) return;
    waiting.splice(at, 1);
    waiter.settle({ rejected: reason, waitedMs: performance.now() - waiter.enqueuedAt });
    this.dispatch();
  }

  /** The hand's queue with the fewest waiting seats, looked at from a rotating start as kube does. */
  private chooseQueue(hash: bigint): Queue {
    const handSize = Math.min(this.config.handSize, this.queues.length);
    const hand = dealHand(hash, this.queues.length, handSize);
    const offset = this.enqueues++ % hand.length;
    let best: Queue | undefined;
    let bestSeats = Number.POSITIVE_INFINITY;
    for (let i = 0; i < hand.length; i++) {
      const queue = this.queues[hand[(offset + i) % hand.length] as number] as Queue;
      const seats = queue.waiting.reduce((sum, w) => sum + w.seats, 0);
      if (seats < bestSeats) {
        bestSeats = seats;
        best = queue;
      }
    }
    return best as Queue;
  }

  private canAccommodate(seats: number): boolean {
    // A request wider than the whole level still runs once the level is idle, or it would never run.
    if (seats > this.config.concurrencyLimit) return this.executing === 0;
    return this.seatsInUse + seats <= this.config.concurrencyLimit;
  }

  private dispatch(): void {
    for (;;) {
      const queue = this.nextQueue();
      if (queue === undefined) return;
      const head = queue.waiting[0] as Waiter;
      if (!this.canAccommodate(head.seats)) return;
      queue.waiting.shift();
      this.virtualNow = Math.max(this.virtualNow, queue.virtualStart);
      queue.virtualStart += head.seats;
      this.robin = (queue.index + 1) % this.queues.length;
      head.settle({ grant: this.start(head.seats, queue, performance.now() - head.enqueuedAt, head.lengthAfter) });
    }
  }

  /** The non-empty queue with the smallest virtual start; ties go round-robin. */
  private nextQueue(): Queue | undefined {
    let best: Queue | undefined;
    for (let i = 0; i < this.queues.length; i++) {
      const queue = this.queues[(this.robin + i) % this.queues.length] as Queue;
      if (queue.waiting.length === 0) continue;
      if (best === undefined || queue.virtualStart < best.virtualStart) best = queue;
    }
    return best;
  }

  private start(seats: number, queue: Queue | undefined, waitedMs: number, lengthAfter: number | undefined): Grant {
    this.seatsInUse += seats;
    this.executing++;
    if (queue !== undefined) {
      queue.seatsInUse += seats;
      queue.executing++;
    }
    let released = false;
    return {
      seats,
      waitedMs,
      queueLengthAfterEnqueue: lengthAfter,
      release: () => {
        if (released) return;
        released = true;
        this.seatsInUse -= seats;
        this.executing--;
        if (queue !== undefined) {
          queue.seatsInUse -= seats;
          queue.executing--;
        }
        this.dispatch();
      },
    };
  }

  /**
   * Follows a changed queue count: new queues start empty; waiting requests of removed queues move to the
   * queue of the same index modulo the new count (kube keeps a removed queue until it drains).
   */
  private resizeQueues(): void {
    const wanted = this.config.exempt ? 0 : this.config.queues;
    if (wanted === this.queues.length) return;
    const old = this.queues;
    this.queues = Array.from({ length: wanted }, (_, index) => {
      const kept = old[index];
      return kept ?? { index, waiting: [], seatsInUse: 0, executing: 0, virtualStart: this.virtualNow };
    });
    for (const removed of old.slice(wanted)) {
      for (const waiter of removed.waiting) {
        const target = this.queues[removed.index % Math.max(wanted, 1)];
        if (target === undefined) {
          waiter.settle({ rejected: "concurrency-limit", waitedMs: performance.now() - waiter.enqueuedAt });
          continue;
        }
        waiter.queue = target;
        target.waiting.push(waiter);
      }
    }
    this.robin = 0;
  }
}
