// Storage backends as ratios against a plain Map set/get in the same process (the floor any store pays).
// Each figure is the median of `rounds` runs on a fresh store, after one discarded warm-up run.
// Usage: npx tsx bench/storage.ts [keys] [rounds]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemoryStore } from "../runtime/storage/memory-store.js";
import { SqliteStore } from "../runtime/storage/sqlite-store.js";
import type { Store } from "../runtime/storage/store.js";

const n = Number(process.argv[2] ?? 10_000);
const rounds = Number(process.argv[3] ?? 3);
const value = new TextEncoder().encode(
  JSON.stringify({ metadata: { name: "x", labels: { app: "bench" } }, data: { blob: "x".repeat(900) } }),
);
const keys = Array.from({ length: n }, (_, i) => `/registry/configmaps/ns/cm-${String(i).padStart(6, "0")}`);

interface Figures {
  writes: number;
  reads: number;
  lists: number;
}

function perSecond(count: number, start: number): number {
  return (count / (performance.now() - start)) * 1000;
}

function baseline(): Figures {
  const map = new Map<string, Uint8Array>();
  let start = performance.now();
  for (const key of keys) map.set(key, value.slice());
  const writes = perSecond(n, start);
  start = performance.now();
  let found = 0;
  for (const key of keys) if (map.get(key) !== undefined) found++;
  const reads = perSecond(found, start);
  start = performance.now();
  const listed = [...map.keys()].sort().map((key) => map.get(key));
  const lists = perSecond(listed.length, start);
  return { writes, reads, lists };
}

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
}

async function repeat(run: (round: number) => Figures | Promise<Figures>): Promise<Figures> {
  await run(-1);
  const all: Figures[] = [];
  for (let round = 0; round < rounds; round++) all.push(await run(round));
  return {
    writes: median(all.map((f) => f.writes)),
    reads: median(all.map((f) => f.reads)),
    lists: median(all.map((f) => f.lists)),
  };
}

async function measure(store: Store): Promise<Figures> {
  let start = performance.now();
  for (const key of keys) await store.create(key, value);
  const writes = perSecond(n, start);
  start = performance.now();
  let found = 0;
  for (const key of keys) if ((await store.get(key)) !== undefined) found++;
  const reads = perSecond(found, start);
  start = performance.now();
  const listed = (await store.list("/registry/configmaps/")).kvs.length;
  const lists = perSecond(listed, start);
  await store.close();
  return { writes, reads, lists };
}

const dir = mkdtempSync(join(tmpdir(), "kapi-bench-"));
try {
  const base = await repeat(baseline);
  const rows: [string, Figures][] = [
    ["Map (baseline)", base],
    ["memory", await repeat(() => measure(new MemoryStore()))],
    ["sqlite synchronous=NORMAL", await repeat((i) => measure(SqliteStore.open(join(dir, `normal-${i}.db`))))],
    [
      "sqlite synchronous=FULL",
      await repeat((i) => measure(SqliteStore.open(join(dir, `full-${i}.db`), { synchronous: "full" }))),
    ],
  ];
  const k = (x: number) => `${(x / 1000).toFixed(0)}k/s`;
  const ratio = (x: number, b: number) => `${(b / x).toFixed(0)}x`;
  console.log(`${n} keys, ${value.length}-byte values; ratio = how many times slower than the Map`);
  for (const [name, f] of rows) {
    console.log(
      `${name.padEnd(26)} writes ${k(f.writes)} (${ratio(f.writes, base.writes)})  reads ${k(f.reads)} (${ratio(f.reads, base.reads)})  list ${k(f.lists)} entries (${ratio(f.lists, base.lists)})`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
