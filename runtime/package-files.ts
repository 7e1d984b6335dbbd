// Files kapi reads at run time (the generated OpenAPI documents and .proto files, gnostic's .proto), named
// by their path in the repository. From the sources they are read in the repository; the built package keeps
// them in dist/data/ at the same paths (scripts/build-package.ts). Either way their root is found by walking
// up from this module, or from the bundle it was built into, to the first directory holding the generated
// OpenAPI index, itself or in data/: moving a module or bundling it needs no path rewritten. The CommonJS
// bundle has no `import.meta`; the build defines `import.meta.url` there as the bundle's own URL.
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, join, parse } from "node:path";
import { fileURLToPath } from "node:url";

const marker = "generated/openapi/v3/index.json";

let root: string | undefined;

function findRoot(): string {
  const start = dirname(fileURLToPath(import.meta.url));
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, marker))) return dir;
    if (existsSync(join(dir, "data", marker))) return join(dir, "data");
    if (dir === parse(dir).root) throw new Error(`kapi: no ${marker} in or above ${start}`);
  }
}

/** The absolute path of a file kapi reads at run time, from its path in the repository. */
export function packageFile(path: string): string {
  root ??= findRoot();
  return join(root, path);
}

/** A JSON file kapi reads at run time, parsed; `T` is what the caller knows the file holds. */
export async function readPackageJson<T>(path: string): Promise<T> {
  return JSON.parse(await readFile(packageFile(path), "utf8")) as T;
}
