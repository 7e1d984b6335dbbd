// Builds the @kapi/client npm package from sdk/ into dist/sdk/ (or `--out-dir <dir>`), ready for `npm pack`:
// an ESM and a CommonJS bundle with every dependency inlined (the package has no runtime dependencies), and
// type declarations for both, each tree in a directory whose package.json gives its module format so that
// TypeScript reads the CommonJS declarations as CommonJS. Usage: npm run build:sdk [-- --out-dir <dir>]
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import ts from "typescript";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const entry = join(root, "sdk/index.ts");
const outDir = resolve(optionValue("--out-dir") ?? join(root, "dist/sdk"));

function optionValue(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
}

function readJson(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
}

function writeJson(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

/** Node's own modules are the only imports a bundle may keep; anything else would be a runtime dependency. */
const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

/**
 * Bundled CommonJS dependencies (yaml's Node build) call `require` for Node's modules, which an ES module
 * lacks: the ESM bundle defines one.
 */
const esmRequire = [
  'import { createRequire as kapiSdkCreateRequire } from "node:module";',
  "const require = kapiSdkCreateRequire(import.meta.url);",
].join("\n");

async function bundle(format: "esm" | "cjs", outfile: string): Promise<void> {
  const { metafile } = await build({
    ...(format === "esm" ? { banner: { js: esmRequire } } : {}),
    entryPoints: [entry],
    outfile,
    bundle: true,
    format,
    platform: "node",
    target: "node20",
    metafile: true,
    logLevel: "warning",
  });
  const kept = Object.values(metafile.outputs).flatMap((output) => output.imports.map((i) => i.path));
  const foreign = kept.filter((path) => !builtins.has(path));
  if (foreign.length > 0) throw new Error(`the ${format} bundle imports ${foreign.join(", ")}: bundle them instead`);
}

/** A bare specifier in a declaration file would need a package the consumer does not have. */
const declarationImport = /(?:\bfrom\s+|\bimport\s*\(\s*|<reference\s+types=)["']([^"']+)["']/g;

function checkDeclarationImports(path: string, text: string): void {
  for (const [, specifier = ""] of text.matchAll(declarationImport)) {
    if (specifier.startsWith(".") || specifier === "node" || builtins.has(specifier)) continue;
    throw new Error(`${relative(root, path)} imports "${specifier}": its types would be missing for consumers`);
  }
}

/** Emits the declarations of the entry and every module it reaches into `typesDir`, failing on type errors. */
function emitDeclarations(typesDir: string): void {
  const configPath = join(root, "tsconfig.json");
  const config = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic },
  );
  if (config === undefined) throw new Error(`cannot read ${configPath}`);
  const options: ts.CompilerOptions = {
    ...config.options,
    noEmit: false,
    declaration: true,
    emitDeclarationOnly: true,
    declarationMap: false,
    sourceMap: false,
    rootDir: root,
    outDir: typesDir,
  };
  const program = ts.createProgram([entry], options);
  throwDiagnostics(ts.getPreEmitDiagnostics(program));
  let written = 0;
  const result = program.emit(undefined, (path, text) => {
    checkDeclarationImports(path, text);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    written++;
  });
  throwDiagnostics(result.diagnostics);
  if (written === 0) throw new Error("no declarations were emitted");
}

function throwDiagnostics(diagnostics: readonly ts.Diagnostic[]): void {
  if (diagnostics.length === 0) return;
  const host: ts.FormatDiagnosticsHost = {
    getCanonicalFileName: (name) => name,
    getCurrentDirectory: () => root,
    getNewLine: () => "\n",
  };
  throw new Error(ts.formatDiagnostics(diagnostics, host));
}

function onUnRecoverableConfigFileDiagnostic(diagnostic: ts.Diagnostic): never {
  throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
}

/** `<dir>/index.d.ts`, re-exporting the entry's declarations from the tree below `<dir>/types/`. */
function writeIndexDeclaration(dir: string): void {
  const target = relative(dir, join(dir, "types", relative(root, entry))).replace(/\.ts$/, ".js");
  writeFileSync(join(dir, "index.d.ts"), `export * from "./${target.split("\\").join("/")}";\n`);
}

async function buildPackage(): Promise<string> {
  const version = readJson(join(root, "package.json")).version;
  const { name, ...template } = readJson(join(root, "sdk/package.json"));
  rmSync(outDir, { recursive: true, force: true });

  const esmDir = join(outDir, "esm");
  const cjsDir = join(outDir, "cjs");
  await Promise.all([bundle("esm", join(esmDir, "index.js")), bundle("cjs", join(cjsDir, "index.cjs"))]);
  emitDeclarations(join(esmDir, "types"));
  cpSync(join(esmDir, "types"), join(cjsDir, "types"), { recursive: true });
  writeIndexDeclaration(esmDir);
  writeIndexDeclaration(cjsDir);
  writeJson(join(esmDir, "package.json"), { type: "module" });
  writeJson(join(cjsDir, "package.json"), { type: "commonjs" });

  writeJson(join(outDir, "package.json"), { name, version, ...template });
  cpSync(join(root, "sdk/README.md"), join(outDir, "README.md"));
  cpSync(join(root, "LICENSE"), join(outDir, "LICENSE"));
  return `${name}@${version}`;
}

const started = performance.now();
try {
  const built = await buildPackage();
  console.log(`built ${built} in ${outDir} in ${Math.round(performance.now() - started)} ms`);
} catch (error) {
  console.error(`build-sdk: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
