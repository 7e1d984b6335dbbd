// Watch cache: one write delivered to 300 watchers (latency from the write call to each watcher's
// receipt, p50/p99), and LIST of 10k objects from the cache against Array.from over a Map of the same
// objects in the same process. Usage: npx tsx bench/watch-cache.ts [watchers] [objects] [writes]
import { MemoryStore } from "../runtime/storage/memory-store.js";
import { WatchCache } from "../runtime/watch-cache/watch-cache.js";

const watchers = Number(process.argv[2] ?? 300);
const objects = Number(process.argv[3] ?? 10_000);
const writes = Number(process.argv[4] ?? 200);
const prefix = "/registry/configmaps/";
const encoder = new TextEncoder();
const value = (i: number) =>
  encoder.encode(JSON.stringify({ metadata: { name: `cm-${i}`, namespace: "ns" }, data: { blob: "x".repeat(900) } }));
const decode = (kv: { value: Uint8Array }) => JSON.parse(new TextDecoder().decode(kv.value)) as unknown;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
}

async function fanOut(): Promise<void> {
  const store = new MemoryStore();
  const cache = await WatchCache.open({ store, prefix, decode });
  const latencies: number[] = [];
  let started = 0;
  let received = 0;
  let allReceived: () => void = () => {};
  for (let w = 0; w < watchers; w++) {
    const watch = await cache.watch({ resourceVersion: String(cache.resourceVersion) });
    void (async () => {
      for await (const _ of watch) {
        latencies.push(performance.now() - started);
        if (++received === watchers) allReceived();
      }
    })();
  }
  for (let i = 0; i < writes; i++) {
    received = 0;
    const done = new Promise<void>((resolve) => {
      allReceived = resolve;
    });
    started = performance.now();
    await store.create(`${prefix}ns/cm-${i}`, value(i));
    await done;
  }
  cache.close();
  latencies.sort((a, b) => a - b);
  console.log(
    `fan-out: ${writes} writes × ${watchers} watchers: p50 ${percentile(latencies, 0.5).toFixed(3)} ms, ` +
      `p99 ${percentile(latencies, 0.99).toFixed(3)} ms (last watcher of each write included)`,
  );
}

async function lists(): Promise<void> {
  const store = new MemoryStore();
  for (let i = 0; i < objects; i++) await store.create(`${prefix}ns/cm-${String(i).padStart(6, "0")}`, value(i));
  const cache = await WatchCache.open({ store, prefix, decode });
  const map = new Map<string, unknown>();
  for (const item of (await cache.list()).items) map.set(item.key, item.object);
  const rounds = 50;
  const time = async (run: () => unknown) => {
    for (let i = 0; i < 5; i++) await run();
    const start = performance.now();
    for (let i = 0; i < rounds; i++) await run();
    return (performance.now() - start) / rounds;
  };
  const baseline = await time(() => Array.from(map.values()));
  const any = await time(() => cache.list({ resourceVersion: "0" }));
  const consistent = await time(() => cache.list());
  const namespace = await time(() => cache.list({ namespace: "ns", resourceVersion: "0" }));
  const paged = await time(async () => {
    let page = await cache.list({ limit: 500 });
    while (page.continue !== undefined) page = await cache.list({ limit: 500, continue: page.continue });
  });
  cache.close();
  const row = (name: string, ms: number) =>
    console.log(`${name.padEnd(34)} ${ms.toFixed(3).padStart(8)} ms  ${(ms / baseline).toFixed(1)}× baseline`);
  console.log(`LIST ${objects} objects (mean of ${rounds}):`);
  row("Array.from(map.values()) baseline", baseline);
  row("cache, resourceVersion=0", any);
  row("cache, unset (consistent read)", consistent);
  row("cache, one namespace, rv=0", namespace);
  row("cache, limit=500 pages, unset", paged);
}

await fanOut();
await lists();
