// Summaries of latency samples, computed the same way for every server.

/** The nearest-rank percentile (p in 0..100) of ascending samples; NaN when there are none. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

/** Ascending copy of the samples. */
export function sortedSamples(samples: ArrayLike<number>): Float64Array {
  return Float64Array.from(samples).sort();
}

export interface LatencySummary {
  count: number;
  p50: number;
  p99: number;
  max: number;
}

export function summarize(samples: ArrayLike<number>): LatencySummary {
  const sorted = sortedSamples(samples);
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.length === 0 ? Number.NaN : (sorted[sorted.length - 1] as number),
  };
}
