// The Retry-After a rejected request is told, per priority level, as kube-apiserver works it out: it starts
// at 1 s; once a level rejected at least three times Retry-After requests within the last Retry-After seconds
// (and Retry-After seconds passed since it last grew) it doubles, up to 32; when fewer than Retry-After were
// rejected in that window it shrinks by one. Counted by whole Unix seconds, looked at when a new second starts.
const maxRetryAfter = 32;

interface SecondCount {
  second: number;
  count: number;
}

class LevelDrops {
  private history: SecondCount[] = [];
  private currentSecond = 0;
  private currentCount = 0;
  retryAfter = 1;
  private grewAt = 0;

  record(second: number): void {
    if (second === this.currentSecond) {
      this.currentCount++;
      return;
    }
    this.remember(this.currentSecond, this.currentCount);
    this.currentSecond = second;
    this.currentCount = 1;
    this.adjust(second);
  }

  private remember(second: number, count: number): void {
    this.history.push({ second, count });
    const kept = Math.min(2 * this.retryAfter, maxRetryAfter);
    const first = this.history.findIndex((entry) => second - entry.second <= kept);
    this.history = first < 0 ? [] : this.history.slice(first);
  }

  private adjust(second: number): void {
    let dropped = 0;
    for (let i = this.history.length - 1; i >= 0; i--) {
      const entry = this.history[i] as SecondCount;
      if (second - entry.second > this.retryAfter) break;
      if (entry.second < second) dropped += entry.count;
    }
    if (second - this.grewAt >= this.retryAfter && dropped >= 3 * this.retryAfter) {
      this.retryAfter = Math.min(this.retryAfter * 2, maxRetryAfter);
      this.grewAt = second;
      return;
    }
    if (dropped < this.retryAfter && this.retryAfter > 1) this.retryAfter--;
  }
}

export class DroppedRequests {
  private readonly levels = new Map<string, LevelDrops>();

  constructor(private readonly now: () => number = Date.now) {}

  record(priorityLevel: string): void {
    let level = this.levels.get(priorityLevel);
    if (level === undefined) {
      level = new LevelDrops();
      this.levels.set(priorityLevel, level);
    }
    level.record(Math.floor(this.now() / 1000));
  }

  /** Seconds to tell a client rejected at this level. */
  retryAfter(priorityLevel: string): number {
    return this.levels.get(priorityLevel)?.retryAfter ?? 1;
  }
}
