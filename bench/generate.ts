// Generator cost as a ratio against reading and parsing the schemas in the same process (the floor any
// generator pays). Usage: npx tsx bench/generate.ts [rounds]
import { join } from "node:path";
import { generateFrom } from "../generator/generate.js";
import { loadSchemaSet } from "../generator/schema/schema-set.js";

const schemas = join(import.meta.dirname, "../schemas");
const rounds = Number(process.argv[2] ?? 3);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

const load: number[] = [];
const full: number[] = [];
let bytes = 0;
let files = 0;
for (let i = 0; i < rounds; i++) {
  let t = performance.now();
  const set = loadSchemaSet(schemas);
  load.push(performance.now() - t);
  t = performance.now();
  const result = await generateFrom(loadSchemaSet(schemas));
  full.push(performance.now() - t);
  if (result.errors.length > 0) throw new Error(result.errors.join("\n"));
  files = result.files.length;
  bytes = result.files.reduce((n, f) => n + f.content.length, 0);
  void set;
}
const baseline = median(load);
const generate = median(full);
console.log(`schemas load+parse (baseline): ${baseline.toFixed(0)} ms`);
console.log(`validate + emit ${files} files, ${(bytes / 1e6).toFixed(1)} MB: ${generate.toFixed(0)} ms`);
console.log(
  `ratio generate/baseline: ${(generate / baseline).toFixed(1)}x; heap used ${(process.memoryUsage().heapUsed / 1e6).toFixed(0)} MB`,
);
