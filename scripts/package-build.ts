// What scripts/build-sdk.ts and scripts/build-package.ts share: command-line and JSON helpers, the esbuild
// checks every bundle passes, and declaration emit with tsc. Each package keeps its JavaScript and its
// declarations in esm/ and cjs/, each with a package.json naming its module format, so that TypeScript reads
// the CommonJS declarations as CommonJS.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { BuildResult, Metafile } from "esbuild";
import type ts from "typescript";

export const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

export function optionValue(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
}

export function readJson(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
}

export function writeJson(path: string, value: unknown, indent = 2): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(value, null, indent)}\n`);
}

/** Node's own modules, which every bundle may import. */
export const builtins: ReadonlySet<string> = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

/** Fails on any esbuild warning and on any import a bundle keeps beyond Node's modules and `allowed`. */
export function checkBundle(
  label: string,
  result: BuildResult & { metafile: Metafile },
  allowed: ReadonlySet<string>,
): void {
  if (result.warnings.length > 0) {
    throw new Error(`the ${label} bundle has warnings:\n${result.warnings.map((w) => w.text).join("\n")}`);
  }
  const kept = Object.values(result.metafile.outputs).flatMap((output) => output.imports);
  const foreign = kept.filter((i) => i.external && !builtins.has(i.path) && !allowed.has(i.path)).map((i) => i.path);
  if (foreign.length > 0) throw new Error(`the ${label} bundle imports ${[...new Set(foreign)].join(", ")}`);
}

/** A bare specifier in a declaration file needs a package the consumer has; `from` counts in statements only. */
const declarationImport =
  /(?:^\s*(?:import|export)\b[^;]*?\bfrom\s*|\bimport\s*\(\s*|<reference\s+types=)["']([^"']+)["']/gm;

function checkDeclarationImports(path: string, text: string, allowed: ReadonlySet<string>): void {
  for (const [, specifier = ""] of text.matchAll(declarationImport)) {
    if (specifier.startsWith(".") || specifier === "node" || builtins.has(specifier) || allowed.has(specifier)) {
      continue;
    }
    throw new Error(`${relative(root, path)} imports "${specifier}": its types would be missing for consumers`);
  }
}

/**
 * Emits the declarations of `entry` and every module it reaches into `typesDir`, failing on type errors and
 * on declarations importing packages other than `allowed`.
 */
export async function emitDeclarations(
  entry: string,
  typesDir: string,
  allowed: ReadonlySet<string> = new Set(),
): Promise<void> {
  // Loaded here: the compiler takes a second and more to load, which a JavaScript-only build does not need.
  const { default: ts } = await import("typescript");
  const configPath = join(root, "tsconfig.json");
  const config = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
      },
    },
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
  throwDiagnostics(ts, ts.getPreEmitDiagnostics(program));
  let written = 0;
  const result = program.emit(undefined, (path, text) => {
    checkDeclarationImports(path, text, allowed);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    written++;
  });
  throwDiagnostics(ts, result.diagnostics);
  if (written === 0) throw new Error("no declarations were emitted");
}

function throwDiagnostics(compiler: typeof ts, diagnostics: readonly ts.Diagnostic[]): void {
  if (diagnostics.length === 0) return;
  const host: ts.FormatDiagnosticsHost = {
    getCanonicalFileName: (name) => name,
    getCurrentDirectory: () => root,
    getNewLine: () => "\n",
  };
  throw new Error(compiler.formatDiagnostics(diagnostics, host));
}

/** `<dir>/index.d.ts`, re-exporting the entry's declarations from the tree below `<dir>/types/`. */
export function writeIndexDeclaration(dir: string, entry: string): void {
  const target = relative(dir, join(dir, "types", relative(root, entry))).replace(/\.ts$/, ".js");
  writeFileSync(join(dir, "index.d.ts"), `export * from "./${target.split("\\").join("/")}";\n`);
}

/** Runs a build step as a command: its summary on success, its error and exit code 1 on failure. */
export async function runBuild(name: string, build: () => Promise<string>): Promise<void> {
  const started = performance.now();
  try {
    const built = await build();
    console.log(`${built} in ${Math.round(performance.now() - started)} ms`);
  } catch (error) {
    console.error(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}
