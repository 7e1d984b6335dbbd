// Builds the @kapi/client npm package from sdk/ into dist/sdk/ (or `--out-dir <dir>`), ready for `npm pack`:
// an ESM and a CommonJS bundle with every dependency inlined (the package has no runtime dependencies), and
// type declarations for both, each tree in a directory whose package.json gives its module format so that
// TypeScript reads the CommonJS declarations as CommonJS. Usage: npm run build:sdk [-- --out-dir <dir>]
import { cpSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
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

const entry = join(root, "sdk/index.ts");
const outDir = resolve(optionValue("--out-dir") ?? join(root, "dist/sdk"));

/**
 * Bundled CommonJS dependencies (yaml's Node build) call `require` for Node's modules, which an ES module
 * lacks: the ESM bundle defines one.
 */
const esmRequire = [
  'import { createRequire as kapiSdkCreateRequire } from "node:module";',
  "const require = kapiSdkCreateRequire(import.meta.url);",
].join("\n");

async function bundle(format: "esm" | "cjs", outfile: string): Promise<void> {
  const result = await build({
    ...(format === "esm" ? { banner: { js: esmRequire } } : {}),
    entryPoints: [entry],
    outfile,
    bundle: true,
    format,
    platform: "node",
    target: "node20",
    metafile: true,
    logLevel: "silent",
  });
  // The package has no dependencies: everything but Node's modules is bundled.
  checkBundle(format, result, new Set());
}

async function buildPackage(): Promise<string> {
  const version = readJson(join(root, "package.json")).version;
  const { name, ...template } = readJson(join(root, "sdk/package.json"));
  rmSync(outDir, { recursive: true, force: true });

  const esmDir = join(outDir, "esm");
  const cjsDir = join(outDir, "cjs");
  await Promise.all([bundle("esm", join(esmDir, "index.js")), bundle("cjs", join(cjsDir, "index.cjs"))]);
  await emitDeclarations(entry, join(esmDir, "types"));
  cpSync(join(esmDir, "types"), join(cjsDir, "types"), { recursive: true });
  writeIndexDeclaration(esmDir, entry);
  writeIndexDeclaration(cjsDir, entry);
  writeJson(join(esmDir, "package.json"), { type: "module" });
  writeJson(join(cjsDir, "package.json"), { type: "commonjs" });

  writeJson(join(outDir, "package.json"), { name, version, ...template });
  cpSync(join(root, "sdk/README.md"), join(outDir, "README.md"));
  cpSync(join(root, "LICENSE"), join(outDir, "LICENSE"));
  return `${name}@${version}`;
}

await runBuild("build-sdk", async () => `built ${await buildPackage()} in ${outDir}`);
