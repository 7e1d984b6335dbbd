// Builds the kapi package into dist/ (or `--out-dir <dir>`), ready for `npm pack`: the runtime (entry
// runtime/index.ts, `startServer`) as an ES module and a CommonJS bundle with its declarations, the CLI
// (runtime/cli/main.ts, the `kapi` command) as an ES module beside the runtime's, and the files the server
// reads at run time under data/ at their repository paths (runtime/package-files.ts finds them there). npm
// dependencies stay imports, resolved from the package's own dependencies. `--js-only` skips the declarations
// (what `npm start` needs, in about a second); `--if-changed` builds only when a source is newer than the
// build. Usage: npm run build [-- --js-only] [-- --if-changed] [-- --out-dir <dir>]
import { chmodSync, cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { build } from "esbuild";
import {
  checkBundle,
  emitDeclarations,
  optionValue,
  readJson,
  root,
  runBuild,
  writeIndexDeclaration,
  writeJson,
} from "./package-build.js";

const entry = join(root, "runtime/index.ts");
const cliEntry = join(root, "runtime/cli/main.ts");
const outDir = resolve(optionValue("--out-dir") ?? join(root, "dist"));
const jsOnly = process.argv.includes("--js-only");
const ifChanged = process.argv.includes("--if-changed");

/** What the build reads: a change below these (a file or, for removals, a directory) makes it stale. */
const sources = ["runtime", "generated", "sdk", "package.json"];

/** Where the server reads files from disk: each directory with the extensions read below it. */
const runTimeFiles: readonly { dir: string; extension: string }[] = [
  { dir: "generated/openapi", extension: ".json" },
  { dir: "generated/proto", extension: ".proto" },
  { dir: "runtime/openapi", extension: ".proto" },
];

const dependencies = new Set(Object.keys(readJson(join(root, "package.json")).dependencies as object));

/**
 * The CommonJS bundle has no `import.meta`: runtime/package-files.ts locates the data from
 * `import.meta.url`, so the bundle defines it as its own file's URL.
 */
const cjsImportMetaUrl = 'const kapiImportMetaUrl = require("node:url").pathToFileURL(__filename).href;';

async function bundleEsm(dir: string): Promise<void> {
  const result = await build({
    entryPoints: { index: entry, cli: cliEntry },
    outdir: dir,
    // Shared code in chunks beside the entries: the CLI and the runtime share one copy, and modules the
    // code imports only when needed (serve flags, scaffolding, CRD clients) load only then.
    splitting: true,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    metafile: true,
    logLevel: "silent",
  });
  checkBundle("ESM", result, dependencies);
  const cli = join(dir, "cli.js");
  writeFileSync(cli, `#!/usr/bin/env node\n${readFileSync(cli, "utf8")}`);
  chmodSync(cli, 0o755);
}

async function bundleCjs(dir: string): Promise<void> {
  const result = await build({
    entryPoints: [entry],
    outfile: join(dir, "index.cjs"),
    bundle: true,
    format: "cjs",
    platform: "node",
    target: "node20",
    packages: "external",
    banner: { js: cjsImportMetaUrl },
    define: { "import.meta.url": "kapiImportMetaUrl" },
    metafile: true,
    logLevel: "silent",
  });
  checkBundle("CommonJS", result, dependencies);
}

function filesBelow(dir: string, extension: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((path) => path.endsWith(extension))
    .map((path) => join(dir, path));
}

function copyRunTimeFiles(dataDir: string): number {
  let copied = 0;
  for (const { dir, extension } of runTimeFiles) {
    for (const file of filesBelow(join(root, dir), extension)) {
      const target = join(dataDir, relative(root, file));
      // The indentation is for diffs in the repository; the package's documents are parsed, never read.
      if (extension === ".json") writeJson(target, JSON.parse(readFileSync(file, "utf8")), 0);
      else cpSync(file, target);
      copied++;
    }
  }
  return copied;
}

function newestChange(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  const below = readdirSync(path, { recursive: true, encoding: "utf8" }).map((p) => statSync(join(path, p)).mtimeMs);
  return Math.max(stat.mtimeMs, ...below);
}

/** dist/esm/package.json, written once both bundles are, is newer than every source. */
function upToDate(): boolean {
  const built = join(outDir, "esm/package.json");
  if (!existsSync(built)) return false;
  const builtAt = statSync(built).mtimeMs;
  return sources.every((source) => newestChange(join(root, source)) < builtAt);
}

async function buildPackage(): Promise<string> {
  if (ifChanged && upToDate()) return `kapi in ${outDir} is up to date`;
  const esmDir = join(outDir, "esm");
  const cjsDir = join(outDir, "cjs");
  const dataDir = join(outDir, "data");
  // dist/ also holds other builds (dist/sdk/): only this package's directories are replaced.
  for (const dir of [esmDir, cjsDir, dataDir]) rmSync(dir, { recursive: true, force: true });
  await Promise.all([bundleEsm(esmDir), bundleCjs(cjsDir)]);
  const copied = copyRunTimeFiles(dataDir);
  writeJson(join(esmDir, "package.json"), { type: "module" });
  writeJson(join(cjsDir, "package.json"), { type: "commonjs" });
  if (!jsOnly) {
    await emitDeclarations(entry, join(esmDir, "types"), dependencies);
    cpSync(join(esmDir, "types"), join(cjsDir, "types"), { recursive: true });
    writeIndexDeclaration(esmDir, entry);
    writeIndexDeclaration(cjsDir, entry);
  }
  const what = jsOnly ? "JavaScript" : "JavaScript and declarations";
  return `built kapi (${what}, ${copied} data files) in ${outDir}`;
}

await runBuild("build-package", buildPackage);
