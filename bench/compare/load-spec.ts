// What a load worker runs: one request shape sent by `concurrency` closed-loop clients, for a count of
// requests or for a time. `{i}` in the path or body becomes the request's index, `{slot}` its client's.

export interface LoadSpec {
  method: string;
  path: string;
  body?: string;
  concurrency: number;
  /** Stop after this many requests … */
  count?: number;
  /** … or after this many seconds. */
  seconds?: number;
  /** The first `{i}`. */
  firstIndex: number;
  /** The first `{slot}`. */
  firstSlot: number;
}

export interface LoadResult {
  /** Each request's latency, ms. */
  latencies: Float64Array;
  ok: number;
  failed: number;
  /** A failed request's status and the start of its body, for the report. */
  firstFailure?: string;
  elapsedMs: number;
}

export function fill(template: string, index: number, slot: number): string {
  return template.replaceAll("{i}", String(index)).replaceAll("{slot}", String(slot));
}
