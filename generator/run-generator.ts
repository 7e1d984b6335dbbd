// npm run generate          → validates schemas/, rewrites generated/
// npm run generate:check    → fails if generated/ differs from what schemas/ produce
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { generate } from "./generate.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const outDir = join(root, "generated");
const check = process.argv.includes("--check");

function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listFiles(path));
    else out.push(relative(outDir, path).replace(/\\/g, "/"));
  }
  return out;
}

const started = performance.now();
const result = await generate(join(root, "schemas"));
if (result.errors.length > 0) {
  for (const e of result.errors) console.error(e);
  console.error(`${result.errors.length} schema error(s); generated/ left unchanged`);
  process.exit(1);
}

const wanted = new Map(result.files.map((f) => [f.path, f.content]));
const existing = listFiles(outDir);
if (check) {
  const drift: string[] = [];
  for (const [path, content] of wanted) {
    const full = join(outDir, path);
    if (!existsSync(full)) drift.push(`missing: generated/${path}`);
    else if (readFileSync(full, "utf8") !== content) drift.push(`differs: generated/${path}`);
  }
  for (const path of existing) if (!wanted.has(path)) drift.push(`extra:   generated/${path}`);
  if (drift.length > 0) {
    for (const d of drift.slice(0, 50)) console.error(d);
    console.error(`generated/ is out of date (${drift.length} file(s)); run npm run generate`);
    process.exit(1);
  }
  console.log(`generated/ is up to date (${wanted.size} files)`);
} else {
  for (const path of existing) if (!wanted.has(path)) rmSync(join(outDir, path));
  for (const [path, content] of wanted) {
    const full = join(outDir, path);
    if (existsSync(full) && readFileSync(full, "utf8") === content) continue;
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
  for (const note of result.notes) console.log(`note: ${note}`);
  console.log(
    `generated ${wanted.size} files from ${result.stats.files} schema files ` +
      `(${result.stats.groups} groups, ${result.stats.versions} group versions, ${result.stats.kinds} kinds) ` +
      `in ${Math.round(performance.now() - started)} ms`,
  );
}
