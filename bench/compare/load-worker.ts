// A load-generating thread of bench/compare.ts: sends the spec it is posted with its own keep-alive
// agent and posts back every latency. Kept off the main thread so that the main thread's timers (the
// watch writer, process sampling) never delay or are delayed by the load.
import { parentPort, workerData } from "node:worker_threads";
import { BenchClient, type ClientConfig } from "./client.js";
import { fill, type LoadResult, type LoadSpec } from "./load-spec.js";

const client = new BenchClient(workerData as ClientConfig);

async function run(spec: LoadSpec): Promise<LoadResult> {
  const latencies: number[] = [];
  let next = 0;
  let ok = 0;
  let failed = 0;
  let firstFailure: string | undefined;
  const started = performance.now();
  const end = spec.seconds === undefined ? Number.POSITIVE_INFINITY : started + spec.seconds * 1000;
  const limit = spec.count ?? Number.POSITIVE_INFINITY;
  await Promise.all(
    Array.from({ length: spec.concurrency }, async (_, s) => {
      const slot = spec.firstSlot + s;
      while (next < limit && performance.now() < end) {
        const index = spec.firstIndex + next++;
        const body = spec.body === undefined ? undefined : fill(spec.body, index, slot);
        const t0 = performance.now();
        try {
          const reply = await client.send(spec.method, fill(spec.path, index, slot), body, false);
          latencies.push(performance.now() - t0);
          if (reply.status >= 200 && reply.status < 300) ok++;
          else {
            failed++;
            firstFailure ??= `${spec.method} ${fill(spec.path, index, slot)}: ${reply.status}`;
          }
        } catch (error) {
          failed++;
          firstFailure ??= `${spec.method} ${fill(spec.path, index, slot)}: ${(error as Error).message}`;
        }
      }
    }),
  );
  const result: LoadResult = {
    latencies: Float64Array.from(latencies),
    ok,
    failed,
    elapsedMs: performance.now() - started,
  };
  if (firstFailure !== undefined) result.firstFailure = firstFailure;
  return result;
}

parentPort?.on("message", (spec: LoadSpec) => {
  run(spec).then(
    (result) => parentPort?.postMessage(result, [result.latencies.buffer as ArrayBuffer]),
    (error: Error) => parentPort?.postMessage({ error: error.message }),
  );
});
parentPort?.postMessage({ ready: true });
