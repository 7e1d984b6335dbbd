// Runs a load spec on the load threads, splitting its clients (and a count) between them, and merges
// their answers.
import type { Worker } from "node:worker_threads";
import type { ClientConfig } from "./client.js";
import type { LoadResult, LoadSpec } from "./load-spec.js";
import { nextMessage, startTsWorker } from "./worker-threads.js";

/** Index stride between threads of a timed run, whose per-thread request counts are not known ahead. */
const timedIndexStride = 10_000_000;

export class LoadGenerator {
  private constructor(private readonly workers: readonly Worker[]) {}

  static async start(client: ClientConfig, threads: number): Promise<LoadGenerator> {
    const entry = new URL("./load-worker.ts", import.meta.url);
    const workers = Array.from({ length: threads }, () => startTsWorker(entry, client));
    await Promise.all(workers.map((w) => nextMessage(w)));
    return new LoadGenerator(workers);
  }

  async run(spec: LoadSpec): Promise<LoadResult> {
    const n = Math.min(this.workers.length, spec.concurrency);
    let index = spec.firstIndex;
    let slot = spec.firstSlot;
    const parts = this.workers.slice(0, n).map((worker, t) => {
      const concurrency = Math.floor(spec.concurrency / n) + (t < spec.concurrency % n ? 1 : 0);
      const part: LoadSpec = { ...spec, concurrency, firstIndex: index, firstSlot: slot };
      if (spec.count !== undefined) {
        part.count = Math.floor(spec.count / n) + (t < spec.count % n ? 1 : 0);
        index += part.count;
      } else {
        index += timedIndexStride;
      }
      slot += concurrency;
      const answer = nextMessage<LoadResult | { error: string }>(worker);
      worker.postMessage(part);
      return answer;
    });
    const results = await Promise.all(parts);
    const merged: LoadResult = { latencies: new Float64Array(0), ok: 0, failed: 0, elapsedMs: 0 };
    const latencies: Float64Array[] = [];
    for (const r of results) {
      if ("error" in r) throw new Error(r.error);
      latencies.push(r.latencies);
      merged.ok += r.ok;
      merged.failed += r.failed;
      merged.elapsedMs = Math.max(merged.elapsedMs, r.elapsedMs);
      if (r.firstFailure !== undefined) merged.firstFailure ??= r.firstFailure;
    }
    const all = new Float64Array(latencies.reduce((sum, l) => sum + l.length, 0));
    let at = 0;
    for (const l of latencies) {
      all.set(l, at);
      at += l.length;
    }
    merged.latencies = all;
    return merged;
  }

  async stop(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
