import { describe, expect, it } from "vitest";
import { percentile, sortedSamples, summarize } from "../../../bench/compare/stats.js";

describe("percentile", () => {
  it("takes the nearest rank", () => {
    const sorted = sortedSamples([5, 1, 4, 2, 3, 10, 9, 8, 7, 6]);
    expect(percentile(sorted, 50)).toBe(5);
    expect(percentile(sorted, 90)).toBe(9);
    expect(percentile(sorted, 99)).toBe(10);
    expect(percentile(sorted, 100)).toBe(10);
    expect(percentile(sorted, 0)).toBe(1);
  });

  it("is the one sample of a single-sample set and NaN of an empty one", () => {
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 50)).toBeNaN();
  });

  it("sorts numerically, not as strings", () => {
    expect(Array.from(sortedSamples([100, 9, 20]))).toEqual([9, 20, 100]);
  });
});

describe("summarize", () => {
  it("gives count, p50, p99 and max", () => {
    const samples = Array.from({ length: 200 }, (_, i) => 200 - i);
    expect(summarize(samples)).toEqual({ count: 200, p50: 100, p99: 198, max: 200 });
  });
});
