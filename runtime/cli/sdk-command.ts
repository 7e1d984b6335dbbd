// `kapi sdk --crd <file.yaml>... --out <dir>`: TypeScript types and typed clients for the served versions of
// CustomResourceDefinition manifests, written below <dir> as generated/ lays them out (docs/generator.md).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { type CrdManifest, CrdManifestError, readCrdManifests } from "../../generator/crd/crd-manifest.js";
import { crdSdkFiles } from "../../generator/crd/crd-sdk.js";

export const sdkUsage = `usage: kapi sdk --crd <file.yaml>... --out <dir> [--client-module <module>] [--meta-module <module>]

Writes <dir>/<group>/<version>/types.ts and <dir>/client/ (a client per group/version, client/index.ts with
createClient) for every served version of the CustomResourceDefinitions in the files.
  --crd FILE            a YAML file of CRD manifests (repeatable; several documents a file)
  --out DIR             where to write
  --client-module M     module exporting ApiClient and ResourceClient (default @kapi/client)
  --meta-module M       module exporting the ObjectMeta and ListMeta types (default @kapi/client)
  A module that starts with . or / is a file path (relative to the current directory).
`;

const defaultPackage = "@kapi/client";

class UsageError extends Error {}

/** A package name as is; a file path as a path from the output root, which the generator rewrites per file. */
function moduleFromOut(module: string, outDir: string): string {
  if (!module.startsWith(".") && !isAbsolute(module)) return module;
  const path = relative(outDir, resolve(module)).replace(/\\/g, "/");
  return path.startsWith(".") ? path : `./${path}`;
}

function parse(args: string[]) {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      crd: { type: "string", multiple: true },
      out: { type: "string" },
      "client-module": { type: "string" },
      "meta-module": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  // `--crd a.yaml b.yaml`: the files after the first are positionals.
  const files = [...(values.crd ?? []), ...positionals];
  if (values.help) return undefined;
  if (files.length === 0) throw new UsageError("at least one --crd file is required");
  if (values.out === undefined) throw new UsageError("--out is required");
  return {
    files,
    outDir: resolve(values.out),
    clientModule: values["client-module"] ?? defaultPackage,
    metaModule: values["meta-module"] ?? defaultPackage,
  };
}

function readFiles(files: string[]): CrdManifest[] {
  return files.flatMap((file) => {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (error) {
      throw new CrdManifestError(`${file}: ${error instanceof Error ? error.message : String(error)}`);
    }
    return readCrdManifests(text, file);
  });
}

/** Runs the verb; resolves with the exit code (0 done, 1 a manifest could not be used, 2 wrong arguments). */
export async function runSdkCommand(args: string[]): Promise<number> {
  let options: ReturnType<typeof parse>;
  try {
    options = parse(args);
  } catch (error) {
    console.error(`kapi sdk: ${error instanceof Error ? error.message : String(error)}\n\n${sdkUsage}`);
    return 2;
  }
  if (options === undefined) {
    console.log(sdkUsage);
    return 0;
  }
  const { outDir } = options;
  try {
    const files = crdSdkFiles(readFiles(options.files), {
      clientModule: moduleFromOut(options.clientModule, outDir),
      metaModule: moduleFromOut(options.metaModule, outDir),
    });
    for (const file of files) {
      const path = join(outDir, file.path);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, file.content);
    }
    console.log(`kapi sdk: wrote ${files.length} files to ${outDir}`);
    return 0;
  } catch (error) {
    if (!(error instanceof CrdManifestError)) throw error;
    console.error(`kapi sdk: ${error.message}`);
    return 1;
  }
}
